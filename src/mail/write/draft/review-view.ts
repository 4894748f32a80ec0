// What a person deciding about a saved draft is shown before it is sent (src/sending/): its
// recipients, subject, attachments and the start of its text, read from the bytes that would go
// out. Everything here comes from a message someone wrote: it is cleaned (../mime/headers.ts) and
// shown to the person, never followed.
import type { Recipients } from "../../compose/recipients.ts";
import { stripTags } from "../../content/html-text/strip.ts";
import { bodySegments } from "../../mime/readable-parts.ts";
import { parseMessage, type MimePart } from "../../mime/tree.ts";

export interface DraftReview {
  subject: string;
  recipients: Recipients;
  attachments: Array<{ filename: string; size: number }>;
  /** The start of the body as plain text. */
  text: string;
}

const REVIEW_CHARS = 600;

export async function reviewOfDraft(raw: Buffer): Promise<DraftReview> {
  const parsed = await parseMessage(raw);
  const list = (field: string) => parsed.headers.addresses(field).flatMap((a) => (a.address ? [{ name: a.name, address: a.address }] : []));
  const text = bodySegments(parsed).map((s) => (s.kind === "text" ? s.text : stripTags(s.html, 0, REVIEW_CHARS))).join("\n\n");
  return {
    subject: parsed.headers.text("subject") ?? "",
    recipients: { to: list("to"), cc: list("cc"), bcc: list("bcc") },
    attachments: attachmentsIn(parsed.root),
    text: text.slice(0, REVIEW_CHARS),
  };
}

/** Leaves declared attachments or carrying a file name, with their decoded sizes. */
function attachmentsIn(part: MimePart): Array<{ filename: string; size: number }> {
  if (part.children.length) return part.children.flatMap(attachmentsIn);
  if (part.disposition !== "attachment" && !part.filename) return [];
  return [{ filename: part.filename ?? "(no name)", size: part.content.length }];
}
