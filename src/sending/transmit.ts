// A message going out (docs/design.md §3): claimed in the at-most-once ledger and counted against
// the caps (one transaction: src/store/send-claims.ts), handed to SMTP (./deliver.ts, which files it
// in Sent), then the outcome recorded for retries and the recipients noted as known. Nothing after
// the SMTP server took the message may fail the call: a caller told "error" would send it again.
import type { GateDeps } from "./gate-deps.ts";
import { deliver, type Afterwards, type Deliverable, type Delivered } from "./deliver.ts";
import { answerEarlier } from "./repeat.ts";
import type { GateAnswer, OutgoingMail, SendResult } from "./request.ts";
import { capRefusalText, sentResult } from "./result-text.ts";

/** How the sent message is told of: the gate's decision and the tool's words about the message. */
export interface Telling {
  decision: "sent_directly" | "confirmed";
  describe: string;
  /** The recipients are inside the description's fence (a stranger wrote part of them): count them only. */
  fenced: boolean;
}

/** Sends a tool's message now: the person confirmed it, or the policy does not ask. */
export async function sendNow(deps: GateDeps, mail: OutgoingMail, digest: string, decision: Telling["decision"]): Promise<GateAnswer> {
  const after: Afterwards = { ...mail.after, ...(mail.draft?.uid != null ? { sentDraft: { folder: mail.draft.folder, uid: mail.draft.uid } } : {}) };
  const telling = { decision, describe: mail.describe, fenced: mail.describe.includes("UNTRUSTED-CONTENT") };
  return transmit(deps, digest, mail, after, telling, { pending: { message_id: mail.messageId } as SendResult });
}

/**
 * Claims the digest and takes the caps, delivers, and records the outcome (never failing the call
 * once the message went out). `reopen`: the review card's Send, on a digest whose outcome was "held".
 */
export async function transmit(
  deps: GateDeps, digest: string, msg: Deliverable, after: Afterwards, telling: Telling, claim: { pending?: SendResult; reopen?: boolean },
): Promise<GateAnswer> {
  const claims = deps.store.sendClaims;
  const taken = await claims.take<SendResult>(deps.grantId, digest, deps.caps.windows, claim);
  if ("refused" in taken) return { kind: "refused", text: capRefusalText(deps.caps.refusal(taken.refused.index, taken.refused.waitMs), deps.clock()) };
  if (!taken.claimed) {
    if (taken.entry) return answerEarlier(deps, digest, taken.entry);
    return { kind: "refused", text: "Not sent by this call: the same message is being sent right now." };
  }
  let delivered: Delivered;
  try {
    delivered = await deliver(deps.submit, deps.mail, msg, after);
  } catch (err) {
    // Refused or never reached: nothing went out, so neither the cap nor the ledger keeps it.
    await claims.giveBack(deps.grantId, digest, taken.slots);
    throw err;
  }
  const { result, text } = sentResult(delivered, telling.decision, telling.describe, telling.fenced, after.sentDraft);
  await settle(deps, "noting a sent message", () => claims.settle(deps.grantId, digest, result, delivered.accepted));
  return { kind: "result", result, text };
}

/** Store writes after the fact: logged when they fail, never turned into a failed call. */
export async function settle(deps: GateDeps, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    deps.log.error(`send gate: ${what} failed`, { error: (err as Error).message });
  }
}
