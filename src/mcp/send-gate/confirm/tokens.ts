// The signed values a confirmation travels in (docs/design.md §3 "Send policy"): the 2026-07-28
// `requestState` of an elicitation round, and the review card's token. Both are made by the SDK's
// HMAC codec (createRequestStateCodec: signed, not encrypted, with an expiry) under keys derived
// from the master key, so any instance can check what another issued; both are bound to the access
// token (another token's answer fails the binding), carry the message digest (an answer for
// another message is refused) and a nonce kept in the store (src/store/send-confirmations.ts: a
// replay is refused). What they carry is no secret: a nonce, a keyed hash, and for the card what
// it shows the person anyway.
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import type { Afterwards } from "../../../mail/write/deliver.ts";
import type { TokenExtra } from "../../server.ts";

/** An elicitation round: nonce and message digest. */
export interface ConfirmState {
  n: string;
  d: string;
}

/** A review card: nonce, digest, the held draft, its Message-ID and envelope, and the tool that held it. */
export interface ReviewClaim {
  n: string;
  d: string;
  tool: string;
  folder: string;
  uid: number;
  messageId: string;
  envelope: { from: string; to: string[] };
  /** Once sent: the message it answers or forwards, flagged so (src/mail/write/deliver.ts). */
  after: Afterwards;
}

/** A round's state lives as long as the at-most-once window: a retry after that is a new request. */
export const STATE_TTL_MS = 10 * 60_000;
/** The card may be looked at later in the conversation; the draft it points at must still be there. */
export const REVIEW_TTL_MS = 24 * 3_600_000;

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
