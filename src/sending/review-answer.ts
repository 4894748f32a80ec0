// The review card's answer (docs/design.md §3 "Send policy"), once the gate (./gate.ts answerReview)
// has decided on it: the person pressed Send or Keep as draft on the card a host rendered for a held
// message, the card's token was checked by the protocol side (signature, expiry, the same access
// token) and its nonce taken by the gate. Keep: the held outcome is recorded as declined. Send: the
// draft is read back and must still be the one reviewed (same UID, same Message-ID, same
// recipients), then it goes through the same ledger, caps and delivery as any other (./transmit.ts).
import { MailError } from "../mail/errors.ts";
import { readDraft } from "../mail/write/draft/read-saved.ts";
import { draftToSend } from "../mail/write/draft/wire-bytes.ts";
import type { ReviewClaim } from "./confirmation.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateAnswer } from "./request.ts";
import { heldResult } from "./result-text.ts";
import { settle, transmit } from "./transmit.ts";

export async function keepReviewed(deps: GateDeps, claim: ReviewClaim): Promise<GateAnswer> {
  const { result, text } = heldResult({ messageId: claim.messageId }, { folder: claim.folder, uid: claim.uid }, "declined");
  await settle(deps, "noting a kept draft", () => deps.store.sendLedger.finish(deps.grantId, claim.d, result));
  return { kind: "result", result, text };
}

export async function sendReviewed(deps: GateDeps, claim: ReviewClaim): Promise<GateAnswer> {
  const gone: GateAnswer = { kind: "refused", text: `Not sent: the draft reviewed is no longer in ${claim.folder} as it was (sent, edited or deleted meanwhile). Open the Drafts folder in your mail app.` };
  const saved = await deps.mail.withImap((c) => readDraft(c, claim.folder, claim.uid)).catch((err: unknown) => {
    if (err instanceof MailError) return null;
    throw err;
  });
  if (!saved) return gone;
  // Sent exactly as saved (Bcc out of what travels, Date now), to exactly the recipients reviewed.
  const msg = draftToSend(saved.raw, deps.mail.account.email, new Date());
  if (msg.messageId !== claim.messageId || !sameRecipients(msg.envelope.to, claim.envelope.to)) return gone;
  const after = { ...claim.after, sentDraft: { folder: claim.folder, uid: claim.uid } };
  return transmit(deps, claim.d, msg, after, { decision: "confirmed", describe: "", fenced: false }, { reopen: true });
}

const sameRecipients = (a: readonly string[], b: readonly string[]) => {
  const norm = (l: readonly string[]) => [...new Set(l.map((x) => x.toLowerCase()))].sort().join(",");
  return norm(a) === norm(b);
};
