// The signed values a confirmation travels in (docs/design.md §3 "Send policy"): the 2026-07-28
// `requestState` of an elicitation round, and the review card's token. Both are made by the SDK's
// HMAC codec (createRequestStateCodec: signed, not encrypted, with an expiry) under keys derived
// from the master key, so any instance can check what another issued; both are bound to the access
// token (another token's answer fails the binding), carry the message digest (an answer for
// another message is refused) and a nonce kept in the store (src/store/send-confirmations.ts: a
// replay is refused). What they carry is no secret: a nonce, a keyed hash, and for the card what
// it shows the person anyway.
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import { REVIEW_TTL_MS, STATE_TTL_MS, type ConfirmState, type ReviewClaim } from "../../sending/confirmation.ts";
import type { TokenExtra } from "../token-extra.ts";

const tokenOf = (ctx: ServerContext) => ((ctx.http?.authInfo?.extra ?? {}) as Partial<TokenExtra>).tokenId ?? "";

export interface ConfirmCodecs {
  state: RequestStateCodec<ConfirmState>;
  review: RequestStateCodec<ReviewClaim>;
}

export function confirmCodecs(keys: { state: Uint8Array; review: Uint8Array }): ConfirmCodecs {
  return {
    state: createRequestStateCodec<ConfirmState>({ key: keys.state, ttlSeconds: STATE_TTL_MS / 1000, bind: tokenOf }),
    review: createRequestStateCodec<ReviewClaim>({ key: keys.review, ttlSeconds: REVIEW_TTL_MS / 1000, bind: tokenOf }),
  };
}
