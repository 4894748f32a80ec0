// What the send gate (./gate.ts) works with for one call: built per call by src/mcp/server.ts from
// the token, the store, the caps and what the client declared.
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log.ts";
import type { OutgoingDeps } from "../../mail/write/outgoing.ts";
import type { SendPolicy } from "../../send-policy.ts";
import type { Store } from "../../store/store.ts";
import type { SendCaps } from "../limits/send-caps.ts";
import type { ConfirmChannel } from "./confirm/channel.ts";
import type { ConfirmState, ReviewClaim } from "./confirm/tokens.ts";

/** The confirmation side of this call: how the client can ask, and the answer this round carries. */
export interface CallConfirmation {
  channel: ConfirmChannel;
  /** The verified state of a retried round (its signature, expiry and token binding already checked), else undefined. */
  state: ConfirmState | undefined;
  /** The retried round's inputResponses, as the client sent them (untrusted). */
  responses: Record<string, unknown> | undefined;
  mintState(state: ConfirmState): Promise<string>;
  mintReview(claim: ReviewClaim): Promise<string>;
}

export interface GateDeps {
  grantId: string;
  /** The grant's send policy; null when the grant is gone (revoked meanwhile). */
  policy(): Promise<SendPolicy | null>;
  store: Pick<Store, "sendLedger" | "sendRecipients" | "sendConfirmations" | "sendClaims">;
  caps: SendCaps;
  mail: OutgoingDeps;
  call: CallConfirmation;
  clock: Clock;
  log: Logger;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
}
