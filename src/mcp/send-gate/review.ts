// The review card's answer (docs/design.md §3 "Send policy"): the person pressed Send or Keep as
// draft on the card a host rendered for a held message (./confirm/review-card.ts), and the card
// called the app-only confirm_send tool with its token. The token is checked by the SDK codec
// (signature, expiry, the same access token) before this runs; here its nonce is taken once, the
// draft is read back and must still be the one reviewed (same UID, same Message-ID), and the send
// goes through the same ledger, caps and delivery as any other (./dispatch.ts transmit).
import type { CallToolResult } from "@modelcontextprotocol/server";
import { MailError } from "../../mail/errors.ts";
import { readDraft } from "../../mail/write/draft-source.ts";
import { draftToSend } from "../../mail/write/draft-wire.ts";
import { toolError } from "../tools/result.ts";
import type { ReviewClaim } from "./confirm/tokens.ts";
import type { GateDeps } from "./deps.ts";
import { answer, settle, transmit } from "./dispatch.ts";
import { heldResult } from "./outcome.ts";

export type ReviewDecision = "send" | "keep_as_draft";

export async function confirmReview(deps: GateDeps, claim: ReviewClaim, decision: ReviewDecision): Promise<CallToolResult> {
  const policy = await deps.policy();
  if (policy === null) return toolError("Not sent: this connection's access has been revoked.");
  if (policy === "never" && decision === "send") return toolError("Not sent: this connection may not send email (drafts only).");
  if (!(await deps.store.sendConfirmations.take(deps.grantId, claim.n))) {
    return toolError("This review was already answered, or it expired. Nothing was sent by this click.");
  }
  const draft = { folder: claim.folder, uid: claim.uid };
  if (decision === "keep_as_draft") {
    const { result, text } = heldResult({ messageId: claim.messageId }, draft, { how: "declined" });
    await settle(deps, "noting a kept draft", () => deps.store.sendLedger.finish(deps.grantId, claim.d, result));
    return answer(result, text);
  }
  const gone = toolError(`Not sent: the draft reviewed is no longer in ${claim.folder} as it was (sent, edited or deleted meanwhile). Open the Drafts folder in your mail app.`);
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
