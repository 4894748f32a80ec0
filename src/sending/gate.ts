// THE SEND GATE (docs/design.md §3 "Send policy"; docs/tools.md "Sending: the gate"). Every message
// that leaves this server passes here: a tool's SendRequest (send_email, send_draft, and replies and
// forwards that send) through runSendGate, a review card's click through answerReview. Each reads one
// straight way: gather the facts, decide (./decide.ts, pure), then send (./transmit.ts), ask, or hold
// (./hold.ts), and record the outcome in the at-most-once ledger. The facts, in order:
//   1. policy: "never" refuses; the grant's policy decides whether the person is asked
//      ("always"; "new_recipients" when a recipient was never written to, ./known-recipients.ts);
//   2. at-most-once: a message already handled in the last 10 minutes gets its first outcome
//      (./repeat.ts), whatever instance handled it;
//   3. the answer: a retried round carrying the person's answer counts only for this message
//      (its digest) and once (its nonce);
//   4. caps: the grant's sends per hour and per day (./caps.ts), checked before the person is asked
//      and taken when the message goes out.
// dry_run stops after the decision and says what would happen, without sending, saving or asking.
import type { SendPolicy } from "../send-policy.ts";
import { decide, admit, mustAsk, type Decision } from "./decide.ts";
import { STATE_TTL_MS, type ReviewClaim } from "./confirmation.ts";
import type { GateDeps } from "./gate-deps.ts";
import { hold } from "./hold.ts";
import { knownRecipientsDeps, newRecipients } from "./known-recipients.ts";
import { answerEarlier } from "./repeat.ts";
import type { GateAnswer, OutgoingMail, SendRequest, SendResult } from "./request.ts";
import { capRefusalText, dryRunResult, refusalText } from "./result-text.ts";
import { keepReviewed, sendReviewed } from "./review-answer.ts";
import { sendNow } from "./transmit.ts";

export async function runSendGate(deps: GateDeps, req: SendRequest): Promise<GateAnswer> {
  const policy = await deps.policy();
  const digest = deps.store.sendLedger.digest({ tool: req.tool, identity: req.identity });
  const earlier = req.dryRun || policy === null || policy === "never" ? null : await deps.store.sendLedger.find<SendResult>(deps.grantId, digest);
  const early = admit({ policy, dryRun: req.dryRun, handledBefore: earlier !== null, answer: null });
  if (early?.kind === "repeat") return answerEarlier(deps, digest, earlier!);
  if (early) return refused(early, deps, "tool");
  const mail = await req.compose();
  const known = policy as SendPolicy;
  const fresh = known === "direct" || known === "never" ? [] : await newRecipients(knownRecipientsDeps(deps), mail.envelope.to);
  const ask = mustAsk(known, fresh) && !req.dryRun;
  const answer = ask ? await takeAnswer(deps, digest) : null;
  if (answer !== null && typeof answer === "object") return answer;
  const cap = (req.dryRun ? known !== "never" : ask && answer === null) ? await deps.caps.check(deps.grantId) : null;
  const decision = decide({ policy: known, dryRun: req.dryRun, handledBefore: false, answer, fresh, channel: deps.call.channel, cap });
  switch (decision.kind) {
    case "dry_run": return { kind: "result", ...dryRunResult(mail, known, [...fresh], decision.wouldAsk, cap) };
    case "send": return sendNow(deps, mail, digest, decision.decision);
    case "ask": return askPerson(deps, mail, digest, [...fresh]);
    case "hold": return hold(deps, req.tool, mail, digest, decision.how, known, [...fresh]);
    default: return refused(decision, deps, "tool");
  }
}

/** The review card's click: the same decision, with the person's answer given and the draft already held. */
export async function answerReview(deps: GateDeps, claim: ReviewClaim, choice: "send" | "keep_as_draft"): Promise<GateAnswer> {
  const answer = choice === "send" ? "send" : "keep";
  const facts = { policy: await deps.policy(), dryRun: false, handledBefore: false, answer } as const;
  const early = admit(facts);
  if (early) return refused(early, deps, "review");
  if (!(await deps.store.sendConfirmations.take(deps.grantId, claim.n))) {
    return { kind: "refused", text: "This review was already answered, or it expired. Nothing was sent by this click." };
  }
  const decision = decide({ ...facts, policy: facts.policy!, fresh: [], channel: "none", cap: null });
  return decision.kind === "send" ? sendReviewed(deps, claim) : keepReviewed(deps, claim);
}

function refused(d: Decision, deps: GateDeps, via: "tool" | "review"): GateAnswer {
  if (d.kind === "refuse" && d.why === "cap") return { kind: "refused", text: capRefusalText(d.cap, deps.clock()) };
  return { kind: "refused", text: refusalText(d.kind === "refuse" ? d.why : "revoked", via) };
}

/** A retried round's answer, counted only for this message and once; null when the round carries none. */
async function takeAnswer(deps: GateDeps, digest: string): Promise<"send" | "keep" | null | Extract<GateAnswer, { kind: "refused" }>> {
  const round = deps.call.answered;
  if (!round) return null;
  const no = (text: string) => ({ kind: "refused" as const, text });
  if (round.state.d !== digest) {
    return no("Not sent: this confirmation was given for another message. Nothing was sent; call the tool again (without the old answer) to ask the person about this one.");
  }
  if (round.answer === "missing") return no("Not sent: the request carries no answer to the confirmation it was asked. Nothing was sent.");
  if (!(await deps.store.sendConfirmations.take(deps.grantId, round.state.n))) {
    return no("Not sent: this confirmation was already used, or it expired. Nothing was sent; call the tool again to ask the person anew.");
  }
  return round.answer;
}

/** The first round: a nonce for the question; the protocol side asks it (src/mcp/confirm/elicitation.ts). */
async function askPerson(deps: GateDeps, mail: OutgoingMail, digest: string, fresh: string[]): Promise<GateAnswer> {
  const n = await deps.store.sendConfirmations.issue(deps.grantId, STATE_TTL_MS);
  return { kind: "ask", state: { n, d: digest }, mail, fresh };
}
