// How the composing tools (draft_email, send_email, update_draft) describe the message they made.
// A reply's or forward's subject and recipients come in part from the original's sender ("Re: <their
// subject>", their Reply-To and Cc), so they are written inside the untrusted-content fence
// (docs/tools.md "The untrusted-content fence"); a message made only from the call's arguments is not.
import type { Recipients } from "../../../mail/compose/recipients.ts";
import { formatAddress } from "../../../mail/read/display-addresses.ts";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";
import type { Assembled } from "../../../mail/write/assemble.ts";

const list = (r: Recipients[keyof Recipients]) => r.map(formatAddress).join(", ");

/** "Subject: …", To, Cc, Bcc, and what the message draws on, as lines. */
function lines(a: Omit<Assembled, "release">): string[] {
  const { subject, recipients: r } = a.composed;
  const out = [`Subject: ${subject || "(no subject)"}`, `To: ${list(r.to)}`];
  if (r.cc.length) out.push(`Cc: ${list(r.cc)}`);
  if (r.bcc.length) out.push(`Bcc: ${list(r.bcc)}`);
  if (a.skipped.length) out.push(`Left out of the reply (not addresses a mail server accepts): ${a.skipped.join(", ")}`);
  return out;
}

/**
 * The message's subject and recipients, fenced when an original's sender wrote part of them (or,
 * `fromDraft`, when they come from a saved draft, which may have been made so).
 */
export function composedText(a: Omit<Assembled, "release">, fromDraft = false): string {
  if (!fromDraft && !a.original) return lines(a).join("\n");
  const what = fromDraft && !a.original ? "some of them kept from the saved draft" : "taken in part from an earlier message";
  const who = fromDraft && !a.original ? "whoever wrote the draft and by this call" : "that message's sender and by this call";
  return fenceUntrusted(lines(a).join("\n"), `A summary of the message (its subject and recipients, ${what})`, who).text;
}

/** Where the message draws on the mailbox: outside the fence, since folder and uid are the server's. */
export function originNote(a: Omit<Assembled, "release">, reply: boolean): string {
  if (!a.original) return "";
  return `${reply ? "Reply to" : "Forward of"} uid ${a.original.uid} in ${a.original.folder}.`;
}
