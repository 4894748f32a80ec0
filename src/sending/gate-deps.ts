// What the send gate (./gate.ts) works with for one request: built per call by the protocol side
// (src/mcp/confirm/tool-sending.ts) from what the composition root made once (./sending.ts: the
// store's sending tables, the caps, the SMTP hand-off) and what the call carries (the token, the
// client's way of asking, the answer this round brings).
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { OutgoingMessage, SendResult as Submitted } from "../mail/smtp/pool.ts";
import type { OutgoingDeps } from "../mail/write/outgoing.ts";
import type { SendPolicy } from "../send-policy.ts";
import type { Store } from "../store/store.ts";
import type { SendCaps } from "./caps.ts";
import type { ConfirmChannel, ConfirmState, PersonAnswer, ReviewClaim } from "./confirmation.ts";

/** The confirmation side of this call: how the client can ask, and the answer this round carries. */
export interface CallConfirmation {
  channel: ConfirmChannel;
  /**
   * The question a retried round answers (its state's signature, expiry and token binding already
   * checked by the protocol side) and the person's answer as sent (untrusted); else undefined.
   */
  answered: { state: ConfirmState; answer: PersonAnswer } | undefined;
  /** Signs a review card's claim: the token its buttons send back. */
  mintReview(claim: ReviewClaim): Promise<string>;
}

export interface GateDeps {
  grantId: string;
  /** The grant's send policy; null when the grant is gone (revoked meanwhile). */
  policy(): Promise<SendPolicy | null>;
  store: Pick<Store, "sendLedger" | "sendRecipients" | "sentMarks" | "sendConfirmations" | "sendClaims" | "heldSubjects">;
  caps: SendCaps;
  mail: OutgoingDeps;
  /** Hands a built message to SMTP as this call's mailbox (src/mail/smtp/pool.ts): only ./deliver.ts calls it. */
  submit(message: OutgoingMessage): Promise<Submitted>;
  call: CallConfirmation;
  clock: Clock;
  log: Logger;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
}
