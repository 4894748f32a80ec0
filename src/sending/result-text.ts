// The sending tools' answers (docs/design.md §6, docs/tools.md "Sending: the gate"): structured
// content of one shape for every outcome, and a text for the model that says what happened and,
// when nothing went out, where the message is and what the person can do; and the refusals' words.
import { fenceUntrusted } from "../mail/content/sanitize.ts";
import { SEND_POLICY_LABELS, type SendPolicy } from "../send-policy.ts";
import type { CapRefusal } from "./caps.ts";
import type { HoldHow } from "./decide.ts";
import type { Delivered } from "./deliver.ts";
import type { DraftRef, OutgoingMail, ReviewView, SendDecision, SendPreview, SendResult } from "./request.ts";

/** Every field, in the order of docs/design.md §6; what a case does not fill is empty or null. */
function shape(r: Pick<SendResult, "status" | "decision" | "message_id"> & Partial<SendResult>): SendResult {
  return {
    status: r.status, decision: r.decision, message_id: r.message_id, accepted: r.accepted ?? [], rejected: r.rejected ?? [],
    saved_to: r.saved_to ?? null, draft: r.draft ?? null, reason: r.reason ?? null, preview: r.preview ?? null,
    from: r.from ?? r.preview?.from ?? null,
  };
}

const where = (d: DraftRef) => (d.uid === null ? d.folder : `${d.folder} (uid ${d.uid})`);
const MB = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : n >= 1024 ? `${Math.ceil(n / 1024)} KB` : `${n} bytes`);

/**
 * `describe`: the tool's lines about the message. When a stranger wrote part of the recipients
 * (a reply-all), they are in its fence: here only counted (`fenced`).
 */
export function sentResult(d: Delivered, decision: "sent_directly" | "confirmed", describe: string, fenced: boolean, sentDraft?: DraftRef): { result: SendResult; text: string } {
  const result = shape({ status: "sent", decision, message_id: d.message_id, accepted: d.accepted, rejected: d.rejected, saved_to: d.saved_to, from: d.from });
  const head = `${decision === "confirmed" ? "Sent after the person confirmed it" : "Sent"}. Message-ID: ${d.message_id}.`;
  // A sent draft leaves its folder; a failure to remove it is among the warnings already.
  const removed = sentDraft && !d.warnings.some((w) => w.includes("removing the draft")) ? `The draft was removed from ${sentDraft.folder}.` : "";
  return { result, text: [head, describe, ...deliveryLines(d, fenced), removed].filter(Boolean).join("\n") };
}

/** Who got it, who did not, where the copy is, and what went wrong after sending. */
function deliveryLines(d: Delivered, fenced: boolean): string[] {
  const n = (list: string[]) => `${list.length} recipient${list.length === 1 ? "" : "s"}`;
  const lines = [fenced ? `Accepted by the server for ${n(d.accepted)}.` : `Accepted by the server for: ${d.accepted.join(", ") || "(nobody)"}.`];
  if (d.rejected.length) {
    lines.push(fenced ? `The server refused ${n(d.rejected)} (listed in rejected), who will not get it.` : `The server refused these recipients, who will not get it: ${d.rejected.join(", ")}.`);
  }
  lines.push(d.saved_to ? `A copy is in ${d.saved_to}.` : d.warnings.length ? "" : "The provider files sent mail in its Sent folder itself.");
  return [...lines, ...d.warnings].filter(Boolean);
}

/** Why the person is asked at all, in the policy's words. */
export function askReason(policy: SendPolicy, fresh: string[]): string {
  return policy === "always" ? "this connection asks the person before every send" : `this connection asks the person before writing to someone new (${fresh.join(", ")})`;
}

/** What the review card shows of a held message (result `_meta`, for the app, not the model). */
export function reviewView(mail: OutgoingMail, fresh: string[]): ReviewView {
  const list = (l: Array<{ address: string }>) => l.map((m) => m.address);
  const r = mail.recipients;
  return {
    from: mail.envelope.from, to: list(r.to), cc: list(r.cc), bcc: list(r.bcc), subject: mail.subject,
    preview: mail.preview, attachments: mail.attachments, new_recipients: fresh,
  };
}

/** `why`: the policy's reason for asking (askReason); unused when the person declined. */
export function heldResult(mail: Pick<OutgoingMail, "messageId"> & Partial<Pick<OutgoingMail, "describe">>, draft: DraftRef, how: HoldHow, why = ""): { result: SendResult; text: string } {
  const decision: SendDecision = how === "declined" ? "declined" : "held_as_draft";
  let reason: string;
  if (how === "declined") {
    reason = `Not sent: the person chose to keep it as a draft. It is saved in ${where(draft)}; they can send it from their mail app whenever they like.`;
  } else if (how === "app") {
    reason = `Not sent yet: ${why}, so the message is shown to them for review with Send and Keep-as-draft buttons. ` +
      `Until they choose, it is saved as a draft in ${where(draft)}. Do not send it again: ask the person to review it in the card.`;
  } else {
    reason = `Not sent: ${why}, and this app cannot ask them. The message is saved as a draft in ${where(draft)}. ` +
      "Tell the person it is waiting there: they can review it in their mail app and send it from there.";
  }
  return { result: shape({ status: "held_as_draft", decision, message_id: mail.messageId, draft, reason }), text: [reason, mail.describe ?? ""].filter(Boolean).join("\n") };
}

export function previewOf(mail: OutgoingMail, policy: SendPolicy, fresh: string[], wouldAsk: boolean): SendPreview {
  const list = (l: Array<{ address: string }>) => l.map((m) => m.address);
  return {
    from: mail.envelope.from, to: list(mail.recipients.to), cc: list(mail.recipients.cc), bcc: list(mail.recipients.bcc),
    subject: mail.subject, size: mail.wire.length, attachments: mail.attachments, policy, would_ask: wouldAsk, new_recipients: fresh,
  };
}

export function dryRunResult(mail: OutgoingMail, policy: SendPolicy, fresh: string[], wouldAsk: boolean, cap: CapRefusal | null): { result: SendResult; text: string } {
  const capNote = cap ? `this connection has sent its ${cap.max} messages a${cap.window === "hour" ? "n hour" : " day"}.` : null;
  const preview = previewOf(mail, policy, fresh, wouldAsk);
  const then = policy === "never" ? "It would be refused: this connection may not send email (drafts only)."
    : capNote ? `It would be refused now: ${capNote}`
    : wouldAsk ? `The person would be asked first: ${askReason(policy, fresh)}.`
    : "It would be sent at once (the send policy does not ask for it).";
  const reason = `Dry run: nothing was sent or saved. ${then}`;
  const lines = [
    reason,
    `From ${preview.from}; to ${preview.to.join(", ")}${preview.cc.length ? `; cc ${preview.cc.join(", ")}` : ""}${preview.bcc.length ? `; bcc ${preview.bcc.join(", ")}` : ""}.`,
    `${MB(preview.size)} in all. Send policy: ${policy} (${SEND_POLICY_LABELS[policy]}).${fresh.length ? ` Never written to before: ${fresh.join(", ")}.` : ""}`,
    // The subject of a reply, and attachment names, may come from the message answered.
    fenceUntrusted([`Subject: ${preview.subject}`, ...preview.attachments.map((a) => `Attachment: ${a.filename} (${MB(a.size)})`)].join("\n"),
      "A list of the subject and the attachment names", "the caller or, for a reply or forward, the sender of the original").text,
  ];
  return { result: shape({ status: "dry_run", decision: "dry_run", message_id: null, reason, preview }), text: lines.join("\n") };
}

/** A retry of a message handled before: its first outcome, said to be that. */
export function repeatResult(first: SendResult, at: number): { result: SendResult; text: string } {
  const when = new Date(at).toISOString().slice(11, 19);
  const note = `This same message was already handled at ${when} UTC (a repeated request): it was not sent again. The first outcome follows.`;
  const told = first.status === "sent" ? `It was sent to ${first.accepted.join(", ")} (Message-ID ${first.message_id}).` : first.reason ?? "";
  return { result: { ...first, from: first.from ?? null, decision: "repeat", reason: `${note} ${told}`.trim() }, text: `${note}\n${told}` };
}

export const fmtWait = (ms: number) => {
  const min = Math.ceil(ms / 60_000);
  return min >= 120 ? `${Math.ceil(min / 60)} hours` : `${min} minute${min === 1 ? "" : "s"}`;
};

/** Refused before anything was built; the review card's click is worded for the person who clicked. */
export function refusalText(why: "revoked" | "never", via: "tool" | "review"): string {
  if (why === "revoked") return via === "tool" ? "Not sent: this connection's access has been revoked. Reconnect the mailbox." : "Not sent: this connection's access has been revoked.";
  return via === "tool"
    ? `Not sent: this connection may not send email (the person chose "never send" when connecting the mailbox). ` +
      "Save it with draft_email instead; the person can send the draft from their mail app."
    : "Not sent: this connection may not send email (drafts only).";
}

/** Over a send cap: which one, and when a send is possible again (./caps.ts). */
export function capRefusalText(r: CapRefusal, now: number): string {
  const at = new Date(now + r.waitMs).toISOString().slice(11, 16);
  return `Not sent: this connection may send at most ${r.max} message${r.max === 1 ? "" : "s"} a${r.window === "hour" ? "n hour" : " day"}, and that many went out in the last ${r.window}. ` +
    `Sending is possible again at ${at} UTC, in ${fmtWait(r.waitMs)}. Nothing was sent or saved; the person can also send it from their mail app.`;
}
