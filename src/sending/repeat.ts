// A request for a message already handled within the window (at-most-once, docs/design.md §3): the
// first outcome, said to be that; or, while the first request is still sending (on this instance
// or another), a wait for its outcome. A first request whose instance stopped mid-send leaves its
// claim open: after the lease the retry is told that, and nothing is sent again.
import type { LedgerEntry } from "../store/send-ledger.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateAnswer, SendResult } from "./request.ts";
import { repeatResult } from "./result-text.ts";

/** How long a claim may stay "sending" before its instance is taken for gone (SMTP's own timeouts are shorter). */
export const SENDING_LEASE_MS = 120_000;
/** How long a retry waits for a send under way, in real time, before it answers without the outcome. */
const WAIT_MS = 30_000;
const POLL_MS = 250;

const refused = (text: string): GateAnswer => ({ kind: "refused", text });

export async function answerEarlier(deps: GateDeps, digest: string, entry: LedgerEntry<SendResult>): Promise<GateAnswer> {
  const done = entry.state === "done" ? entry : await waitForOutcome(deps, digest, entry);
  if (done === null) return refused("Not sent: an earlier identical request failed without sending anything. Call the tool again to try once more.");
  if (done.state === "done" && done.outcome) {
    return { kind: "result", ...repeatResult(done.outcome, done.createdAt) };
  }
  if (done.state === "done") return refused("This same message was already handled in the last 10 minutes; it was not sent again. Its outcome cannot be read here: check the Sent and Drafts folders.");
  const id = done.outcome?.message_id ? ` (Message-ID ${done.outcome.message_id})` : "";
  const stopped = deps.clock() - done.updatedAt >= SENDING_LEASE_MS;
  return refused(stopped
    ? `Not sent again: an identical request started sending this message${id} but its server stopped before saying whether it went out. Check the Sent folder, or ask the recipients, before sending it once more.`
    : `Not sent again: an identical request is still sending this message${id}. Wait a minute, then check the Sent folder.`);
}

/** The entry once it is no longer sending, the lease has run out, or the wait is over; null when the claim was given back. */
async function waitForOutcome(deps: GateDeps, digest: string, entry: LedgerEntry<SendResult>): Promise<LedgerEntry<SendResult> | null> {
  const until = performance.now() + WAIT_MS;
  let current: LedgerEntry<SendResult> | null = entry;
  while (current?.state === "sending" && deps.clock() - current.updatedAt < SENDING_LEASE_MS && performance.now() < until && !deps.signal.aborted) {
    await Bun.sleep(POLL_MS);
    current = await deps.store.sendLedger.find<SendResult>(deps.grantId, digest);
  }
  return current;
}
