// Sending as the composition root builds it once per service: the store's sending tables, the caps,
// the clock, and the SMTP pool's send (the hand-off to SMTP reaches the gate from here, never from a
// tool's context). gateDeps() binds it to one call: the token whose transport sends, the mailbox it
// sends as, and the confirmation side the protocol layer supplies.
import type { Clock } from "../clock.ts";
import type { SendLimits } from "../config.ts";
import type { Logger } from "../log.ts";
import type { SmtpPool } from "../mail/smtp/pool.ts";
import type { OutgoingDeps } from "../mail/write/outgoing.ts";
import type { Store } from "../store/store.ts";
import { mailboxScope } from "../store/mailbox-scope.ts";
import { connectionKey } from "../mail/connection-key.ts";
import { SendCaps } from "./caps.ts";
import type { CallConfirmation, GateDeps } from "./gate-deps.ts";

export interface SendingService {
  store: Pick<Store, "grants" | "mailboxes" | "sendLedger" | "sendRecipients" | "sentMarks" | "sendConfirmations" | "sendClaims" | "heldSubjects">;
  caps: SendCaps;
  clock: Clock;
  smtp: Pick<SmtpPool, "send">;
}

export function buildSendingService(store: Store, limits: SendLimits, clock: Clock, smtp: Pick<SmtpPool, "send">): SendingService {
  return { store, caps: new SendCaps(store.limits, limits), clock, smtp };
}

/** One call's side: whose token and grant, its mailbox (composing and IMAP), how it confirms. */
export interface SendingCall {
  tokenId: string;
  grantId: string;
  /** The mailbox of the connection that sends (its position): its policy, caps, ledger and recipients. */
  mailbox: number;
  outgoing: () => Promise<OutgoingDeps>;
  confirm: CallConfirmation;
  log: Logger;
  signal: AbortSignal;
}

export async function gateDeps(s: SendingService, call: SendingCall): Promise<GateDeps> {
  const mail = await call.outgoing();
  return {
    // Every table of the gate keys this mailbox by its scope (src/store/mailbox-scope.ts).
    grantId: mailboxScope(call.grantId, call.mailbox),
    policy: () => s.store.mailboxes.sendPolicy(call.grantId, call.mailbox),
    store: s.store,
    caps: s.caps,
    mail,
    submit: (message) => s.smtp.send(connectionKey(call.tokenId, call.mailbox), mail.account, message),
    call: call.confirm,
    clock: s.clock,
    log: call.log,
    signal: call.signal,
  };
}
