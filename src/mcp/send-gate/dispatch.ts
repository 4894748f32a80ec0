// The two ways a message leaves the gate (docs/design.md §3): sent (claimed in the at-most-once
// ledger, counted against the caps, submitted, filed in Sent, the recipients noted as known) or
// held as a draft (claimed, saved in Drafts, and for a host that renders the review card a signed
// token for its buttons). Nothing after the SMTP server took the message may fail the call: a
// caller told "error" would send it again.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { ONCE } from "../../mail/write/outgoing.ts";
import { deliver, type Afterwards, type Deliverable, type Delivered } from "../../mail/write/deliver.ts";
import { appendDraft } from "../../mail/write/append.ts";
import { toolError } from "../tools/result.ts";
import { REVIEW_TTL_MS } from "./confirm/tokens.ts";
import type { GateDeps } from "./deps.ts";
import { answerEarlier } from "./earlier.ts";
import { fmtWait, heldResult, reviewView, sentResult, type HeldHow } from "./outcome.ts";
import type { DraftRef, OutgoingMail, SendRequest, SendResult } from "./request.ts";
import type { CapRefusal } from "../limits/send-caps.ts";

/** The result `_meta` key of a review card's token: for the app (the host passes _meta to it), not the model. */
export const REVIEW_META_KEY = "mailbox-mcp/review";

export const answer = (result: SendResult, text: string, meta?: Record<string, unknown>): CallToolResult =>
  ({ content: [{ type: "text", text }], structuredContent: { ...result }, ...(meta ? { _meta: meta } : {}) });

export function capRefusal(r: CapRefusal, now: number): CallToolResult {
  const at = new Date(now + r.waitMs).toISOString().slice(11, 16);
  return toolError(`Not sent: this connection may send at most ${r.max} message${r.max === 1 ? "" : "s"} a${r.window === "hour" ? "n hour" : " day"}, and that many went out in the last ${r.window}. ` +
    `Sending is possible again at ${at} UTC, in ${fmtWait(r.waitMs)}. Nothing was sent or saved; the person can also send it from their mail app.`);
}

/** Sends now: the person confirmed it, or the policy does not ask. */
export async function sendNow(deps: GateDeps, req: SendRequest, mail: OutgoingMail, digest: string, decision: "sent_directly" | "confirmed"): Promise<CallToolResult> {
  const after: Afterwards = { ...mail.after, ...(mail.draft?.uid != null ? { sentDraft: { folder: mail.draft.folder, uid: mail.draft.uid } } : {}) };
  const telling = { decision, describe: mail.describe, fenced: mail.describe.includes("UNTRUSTED-CONTENT") };
  return transmit(deps, digest, mail, after, telling, { pending: { message_id: mail.messageId } as SendResult });
}

/** How the sent message is told of: the gate's decision and the tool's words about the message. */
export interface Telling {
  decision: "sent_directly" | "confirmed";
  describe: string;
  /** The recipients are inside the description's fence (a stranger wrote part of them): count them only. */
  fenced: boolean;
}

/**
 * Claims the digest and counts the send against the caps (one transaction: src/store/send-claims.ts),
 * then delivers it (src/mail/write/deliver.ts, the one place mail is sent, which files it in Sent and
 * does `after`); then, never failing the call, notes the outcome for retries and the recipients as known.
 * `reopen`: the review card's Send, on a digest whose outcome was "held".
 */
export async function transmit(
  deps: GateDeps, digest: string, msg: Deliverable, after: Afterwards, telling: Telling, claim: { pending?: SendResult; reopen?: boolean },
): Promise<CallToolResult> {
  const claims = deps.store.sendClaims;
  const taken = await claims.take<SendResult>(deps.grantId, digest, deps.caps.windows, claim);
  if ("refused" in taken) return capRefusal(deps.caps.refusal(taken.refused.index, taken.refused.waitMs), deps.clock());
  if (!taken.claimed) {
    if (taken.entry) return answerEarlier(deps, digest, taken.entry);
    return toolError("Not sent by this call: the same message is being sent right now.");
  }
  let delivered: Delivered;
  try {
    delivered = await deliver(deps.mail, msg, after);
  } catch (err) {
    // Refused or never reached: nothing went out, so neither the cap nor the ledger keeps it.
    await claims.giveBack(deps.grantId, digest, taken.slots);
    throw err;
  }
  const { result, text } = sentResult(delivered, telling.decision, telling.describe, telling.fenced, after.sentDraft);
  await settle(deps, "noting a sent message", () => claims.settle(deps.grantId, digest, result, delivered.accepted));
  return answer(result, text);
}

/** Saves the message as a draft (or leaves the draft it is) and says why it was not sent. */
export async function hold(deps: GateDeps, req: SendRequest, mail: OutgoingMail, digest: string, how: HeldHow): Promise<CallToolResult> {
  const ledger = deps.store.sendLedger;
  const claim = await ledger.claim<SendResult>(deps.grantId, digest);
  if (!claim.claimed) return answerEarlier(deps, digest, claim.entry);
  let draft: DraftRef;
  try {
    draft = mail.draft ?? (await deps.mail.withImap((c) => appendDraft(c, mail.stored, mail.messageId), ONCE));
  } catch (err) {
    await ledger.release(deps.grantId, digest);
    throw err;
  }
  const { result, text } = heldResult(mail, draft, how);
  const meta = how.how === "app" && draft.uid !== null
    ? { [REVIEW_META_KEY]: { token: await reviewToken(deps, req, mail, digest, draft), message: reviewView(mail, how.fresh) } }
    : undefined;
  await settle(deps, "noting a held message", () => ledger.finish(deps.grantId, digest, result));
  return answer(result, text, meta);
}

async function reviewToken(deps: GateDeps, req: SendRequest, mail: OutgoingMail, digest: string, draft: DraftRef): Promise<string> {
  const n = await deps.store.sendConfirmations.issue(deps.grantId, REVIEW_TTL_MS);
  return deps.call.mintReview({ n, d: digest, tool: req.tool, folder: draft.folder, uid: draft.uid!, messageId: mail.messageId, envelope: mail.envelope, after: mail.after });
}

/** Store writes after the fact: logged when they fail, never turned into a failed call. */
export async function settle(deps: GateDeps, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    deps.log.error(`send gate: ${what} failed`, { error: (err as Error).message });
  }
}
