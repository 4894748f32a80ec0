// A message held for the person's review (src/mcp/send-gate/): saved as a draft, and, when they press
// Send on the review card (src/mcp/tools/write/confirm-send.ts), its bytes read back by UID with the
// Bcc header taken out of the copy that goes over SMTP (the Bcc recipients stay in the envelope and in
// the copy filed in Sent). ./deliver.ts sends it and removes the draft.
import type { ImapFlow } from "imapflow";
import { fetchByUid, withMailbox } from "../imap/mailbox.ts";
import { firstMessageId } from "../mime/message-ids.ts";
import { appendDraft, type Appended } from "./append.ts";

export interface StoredDraft {
  /** The draft's bytes, Bcc included: what is filed in Sent. */
  stored: Buffer;
  /** Without the Bcc header: what goes over SMTP. */
  wire: Buffer;
  messageId: string | null;
}

/** Saves a message the person has not confirmed (yet) as a draft: \Drafts, flagged \Draft. */
export const saveHeld = (client: ImapFlow, msg: { stored: Buffer; messageId: string }): Promise<Appended> =>
  appendDraft(client, msg.stored, msg.messageId);

/** The draft's bytes, or null when the folder has no message with that UID (sent, edited or deleted meanwhile). */
export async function loadDraft(client: ImapFlow, folder: string, uid: number): Promise<StoredDraft | null> {
  return withMailbox(client, folder, async () => {
    const msg = await fetchByUid(client, uid, { source: true, envelope: true });
    if (!msg?.source) return null;
    return { stored: msg.source, wire: withoutBcc(msg.source), messageId: firstMessageId(msg.envelope?.messageId) };
  }, { readOnly: true, freshness: "verify" });
}

/**
 * The message with its Bcc header field (RFC 5322 §3.6.3), folded continuation lines included,
 * taken out of the header section; the body is untouched.
 */
export function withoutBcc(raw: Buffer): Buffer {
  const text = raw.toString("latin1"); // byte for byte: header fields are ASCII, the body is left as it is
  const blank = text.search(/\r?\n\r?\n/);
  // The header section with its last line's own line end; the blank line and the body follow.
  const end = blank < 0 ? text.length : blank + (text[blank] === "\r" ? 2 : 1);
  const head = text.slice(0, end);
  const kept: string[] = [];
  let dropping = false;
  for (const line of head.split(/(?<=\n)/)) {
    const continuation = /^[ \t]/.test(line);
    if (!continuation) dropping = /^bcc\s*:/i.test(line);
    if (!dropping) kept.push(line);
  }
  return Buffer.from(kept.join("") + text.slice(end), "latin1");
}
