// THE SEND GATE (docs/design.md §3 "Send policy"; docs/tools.md "Sending: the gate"). Every tool that
// sends mail (send_email; send_draft, forwards and replies that send) builds a SendRequest and
// calls ctx.send(request), which runs this, in this order:
//   1. policy: "never" refuses; the grant's policy decides whether the person is asked
//      ("always"; "new_recipients" when a recipient was never written to, ./recipients.ts);
//   2. at-most-once: a message already handled in the last 10 minutes gets its first outcome
//      (./earlier.ts), whatever instance handled it;
//   3. confirm: a retried round carrying the person's answer is checked (signature, expiry and
//      token by the SDK's codec, then the message digest and the single-use nonce); otherwise the
//      person is asked by elicitation (./confirm/elicitation.ts), or the message is held as a
//      draft, with a review card for hosts that render MCP Apps (./dispatch.ts hold);
//   4. caps: the grant's sends per hour and per day (src/mcp/limits/send-caps.ts), checked before
//      the person is asked and taken when the message goes out;
//   5. send (./dispatch.ts sendNow).
// dry_run stops after 1 and says what would happen, without sending, saving or asking.
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import { inputRequired } from "@modelcontextprotocol/server";
import type { SendPolicy } from "../../send-policy.ts";
import { ok, toolError } from "../tools/result.ts";
import { CONFIRM_KEY, confirmRequest, decisionOf } from "./confirm/elicitation.ts";
import { STATE_TTL_MS, type ConfirmState } from "./confirm/tokens.ts";
import type { GateDeps } from "./deps.ts";
import { capRefusal, hold, sendNow } from "./dispatch.ts";
import { answerEarlier } from "./earlier.ts";
import { askReason, dryRunResult } from "./outcome.ts";
import { newRecipients } from "./recipients.ts";
import type { OutgoingMail, SendRequest, SendResult } from "./request.ts";

export type GateAnswer = CallToolResult | InputRequiredResult;

export async function runSendGate(deps: GateDeps, req: SendRequest): Promise<GateAnswer> {
  const policy = await deps.policy();
  if (policy === null) return toolError("Not sent: this connection's access has been revoked. Reconnect the mailbox.");
  if (policy === "never" && !req.dryRun) {
    return toolError(`Not sent: this connection may not send email (the person chose "never send" when connecting the mailbox). ` +
      "Save it with draft_email instead; the person can send the draft from their mail app.");
  }
  const digest = deps.store.sendLedger.digest({ tool: req.tool, identity: req.identity });
  if (!req.dryRun) {
    const earlier = await deps.store.sendLedger.find<SendResult>(deps.grantId, digest);
    if (earlier) return answerEarlier(deps, digest, earlier);
  }
  const mail = await req.compose();
  const fresh = policy === "direct" || policy === "never" ? [] : await newRecipients({ grantId: deps.grantId, recipients: deps.store.sendRecipients, mail: deps.mail }, mail.envelope.to);
  const ask = policy === "always" || (policy === "new_recipients" && fresh.length > 0);
  if (req.dryRun) return dryRun(deps, mail, policy, fresh, ask);
  if (!ask) return sendNow(deps, req, mail, digest, "sent_directly");
  if (deps.call.state) return answered(deps, req, mail, digest, deps.call.state);
  const full = await deps.caps.check(deps.grantId);
  if (full) return capRefusal(full, deps.clock());
  if (deps.call.channel === "elicitation") return askPerson(deps, mail, digest, fresh);
  const why = askReason(policy, fresh);
  return hold(deps, req, mail, digest, deps.call.channel === "app" ? { how: "app", why, fresh } : { how: "no_channel", why });
}

async function dryRun(deps: GateDeps, mail: OutgoingMail, policy: SendPolicy, fresh: string[], ask: boolean): Promise<CallToolResult> {
  const full = policy === "never" ? null : await deps.caps.check(deps.grantId);
  const note = full ? `this connection has sent its ${full.max} messages a${full.window === "hour" ? "n hour" : " day"}.` : null;
  const { result, text } = dryRunResult(mail, policy, fresh, ask, note);
  return ok({ ...result }, text);
}

/** The first round: an input_required result carrying the question and the signed state of this round. */
async function askPerson(deps: GateDeps, mail: OutgoingMail, digest: string, fresh: string[]): Promise<InputRequiredResult> {
  const n = await deps.store.sendConfirmations.issue(deps.grantId, STATE_TTL_MS);
  return inputRequired({
    inputRequests: { [CONFIRM_KEY]: confirmRequest(mail, fresh) },
    requestState: await deps.call.mintState({ n, d: digest }),
  });
}

/** A retried round: the answer counts only for this message, once. */
async function answered(deps: GateDeps, req: SendRequest, mail: OutgoingMail, digest: string, state: ConfirmState): Promise<CallToolResult> {
  if (state.d !== digest) {
    return toolError("Not sent: this confirmation was given for another message. Nothing was sent; call the tool again (without the old answer) to ask the person about this one.");
  }
  const decision = decisionOf(deps.call.responses);
  if (decision === "missing") return toolError("Not sent: the request carries no answer to the confirmation it was asked. Nothing was sent.");
  if (!(await deps.store.sendConfirmations.take(deps.grantId, state.n))) {
    return toolError("Not sent: this confirmation was already used, or it expired. Nothing was sent; call the tool again to ask the person anew.");
  }
  if (decision === "keep") return hold(deps, req, mail, digest, { how: "declined" });
  return sendNow(deps, req, mail, digest, "confirmed");
}
