// A message held for the person (docs/design.md §3): claimed in the at-most-once ledger, saved in
// Drafts (a draft being sent stays where it is), and, for a host that renders the review card, a
// signed token for its buttons; then the outcome recorded, so a retry gets it instead of a new draft.
import { appendDraft } from "../mail/write/append.ts";
import { ONCE } from "../mail/write/outgoing.ts";
import type { SendPolicy } from "../send-policy.ts";
import { REVIEW_TTL_MS } from "./confirmation.ts";
import type { HoldHow } from "./decide.ts";
import type { GateDeps } from "./gate-deps.ts";
import { answerEarlier } from "./repeat.ts";
import type { DraftRef, GateAnswer, OutgoingMail, SendResult } from "./request.ts";
import { askReason, heldResult, reviewView } from "./result-text.ts";
import { settle } from "./transmit.ts";

export async function hold(deps: GateDeps, tool: string, mail: OutgoingMail, digest: string, how: HoldHow, policy: SendPolicy, fresh: string[]): Promise<GateAnswer> {
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
  // The owner's page names the held message by its subject (kept sealed, bounded; src/store/held-subjects.ts).
  await settle(deps, "keeping a held message's subject", () => deps.store.heldSubjects.record(deps.grantId, mail.messageId, mail.subject));
  const { result, text } = heldResult(mail, draft, how, how === "declined" ? "" : askReason(policy, fresh));
  const review = how === "app" && draft.uid !== null
    ? { token: await reviewToken(deps, tool, mail, digest, { folder: draft.folder, uid: draft.uid }), message: reviewView(mail, fresh) }
    : undefined;
  await settle(deps, "noting a held message", () => ledger.finish(deps.grantId, digest, result));
  return { kind: "result", result, text, ...(review ? { review } : {}) };
}

async function reviewToken(deps: GateDeps, tool: string, mail: OutgoingMail, digest: string, draft: { folder: string; uid: number }): Promise<string> {
  const n = await deps.store.sendConfirmations.issue(deps.grantId, REVIEW_TTL_MS);
  return deps.call.mintReview({ n, d: digest, tool, folder: draft.folder, uid: draft.uid, messageId: mail.messageId, envelope: mail.envelope, after: mail.after });
}
