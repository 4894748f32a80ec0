// The readable text of each message shown in a thread, read as get_email reads a body (text parts,
// HTML converted, attached messages inline), with the quoted history trimmed unless asked for.
// Messages up to 64 KB came whole with the search (./gather.ts); larger ones are read here, whole
// up to 1 MB, else only their text part, so big attachments are never downloaded.
import type { ImapFlow } from "imapflow";
import type { ContentReaders } from "../../content/readers.ts";
import { fetchOwn, withMailbox } from "../../imap/mailbox.ts";
import { bodySegments, type Segment } from "../../mime/readable-parts.ts";
import { parseMessage } from "../../mime/tree.ts";
import { invitationOf } from "../../calendar/invitation-part.ts";
import type { Invitation } from "../../calendar/invitation.ts";
import { attachmentsOf, capAttachments, type AttachmentInfo } from "../attachment-list.ts";
import { readable, window } from "../message.ts";
import { textPartOf } from "../text-part.ts";
import { INLINE_SOURCE, type Found } from "./gather.ts";
import { trimQuoted } from "./quoted.ts";

export interface MessageBody {
  in_reply_to: string | null;
  references: string[];
  body_text: string;
  truncated: boolean;
  /** Quoted history at the end of the body was left out (include_quoted: false). */
  quoted_trimmed: boolean;
  attachments: AttachmentInfo[];
  /** The invitation the message carries (only one read whole); your_status filled by the caller. */
  invitation: Invitation | null;
}

const WHOLE_LIMIT = 1024 * 1024;
/** The most of a large message's text part downloaded: far more than a thread shows of one message. */
const TEXT_PART_BYTES = 256 * 1024;

type Source = { whole: Buffer } | { segment: Segment; cut: boolean } | null;

/** The bodies of `shown`, in its order; `chars[i]` is the most characters message i may show. */
export async function readBodies(client: ImapFlow, shown: Found[], chars: number[], includeQuoted: boolean, content: ContentReaders): Promise<MessageBody[]> {
  const sources = await fetchMissing(client, shown);
  const out: MessageBody[] = [];
  for (const [i, f] of shown.entries()) out.push(await render(f, sources.get(f) ?? null, chars[i]!, includeQuoted, content));
  return out;
}

/** What was not fetched whole with the search: one FETCH per folder for those up to 1 MB, the text part of larger ones. */
async function fetchMissing(client: ImapFlow, shown: Found[]): Promise<Map<Found, Source>> {
  const sources = new Map<Found, Source>();
  for (const f of shown) if ((f.msg.size ?? 0) <= INLINE_SOURCE && f.msg.source) sources.set(f, { whole: f.msg.source });
  const missing = Map.groupBy(shown.filter((f) => !sources.has(f)), (f) => f.folder);
  for (const [folder, list] of missing) {
    await withMailbox(client, folder, async () => {
      const mid = list.filter((f) => (f.msg.size ?? 0) <= WHOLE_LIMIT).map((f) => f.msg.uid);
      const got = mid.length ? await fetchOwn(client, mid.join(","), { uid: true, source: true }, true, new Set(mid)) : [];
      const byUid = new Map(got.map((m) => [m.uid, m.source]));
      for (const f of list) {
        const whole = byUid.get(f.msg.uid);
        sources.set(f, whole ? { whole } : await textPartOf(client, f.msg.uid, f.msg.bodyStructure, TEXT_PART_BYTES));
      }
    }, { readOnly: true, freshness: "none" });
  }
  return sources;
}

async function render(f: Found, source: Source, maxChars: number, includeQuoted: boolean, content: ContentReaders): Promise<MessageBody> {
  const whole = source && "whole" in source ? source.whole : null;
  const parsed = await parseMessage(whole ?? f.msg.headers ?? Buffer.alloc(0));
  const segments = whole ? bodySegments(parsed) : source && "segment" in source ? [source.segment] : [];
  // Read past the window: trimming may remove most of what was read.
  const full = (await readable(segments, Math.max(maxChars, 4000) * 4, content)).text;
  const trimmed = includeQuoted ? { text: full, trimmed: false } : trimQuoted(full);
  const body = maxChars > 0 ? window(trimmed.text, maxChars) : { text: "", truncated: trimmed.text.length > 0 };
  return {
    in_reply_to: parsed.headers.inReplyTo(),
    references: parsed.headers.references(),
    body_text: body.text,
    truncated: body.truncated || (source && "cut" in source ? source.cut : false),
    quoted_trimmed: trimmed.trimmed,
    // Capped as get_email caps it (docs/decisions.md "A hostile mail server"); get_email lists the
    // rest with their count.
    attachments: capAttachments(attachmentsOf(f.msg.bodyStructure, whole ? parsed : null)).attachments,
    invitation: whole ? invitationOf(parsed) : null,
  };
}
