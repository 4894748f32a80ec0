// Composing a message from prepared arguments (./outgoing.ts): read the message answered or forwarded,
// find and fetch the mailbox parts to attach (within the 20 MB, docs/design.md §7), address a reply,
// add the quote or the forwarded text, and build the MIME. An update starts from the draft's own
// values (./draft/saved-values.ts) instead of nothing.
import type { Mailbox, Recipients } from "../compose/recipients.ts";
import { checkRecipients } from "../compose/recipients.ts";
import { composeMessage, MAX_ATTACHMENT_BYTES, replyThreading, type Attachment, type Composed, type ReplyThreading } from "../compose/message.ts";
import { appendBlock, forwardBlock, replyQuote, type Addition, type BodyParts } from "../compose/quote.ts";
import { replyRecipients } from "../compose/reply-recipients.ts";
import { InputError } from "../errors.ts";
import { ownAddresses } from "../own-addresses.ts";
import { stripTags } from "../content/html-text/strip.ts";
import { locateParts, locatePart, wholeMessage, type Located } from "./mailbox-parts.ts";
import { readOriginal, type Original } from "./original.ts";
import type { OutgoingDeps, Prepared } from "./outgoing.ts";
import { fetchLocated } from "./part-bytes.ts";
import { addressedIdentity, findIdentity, type Identity } from "../identities/identity.ts";
import { signatureBlock } from "../identities/signature.ts";

/** What an update starts from: the saved draft's values. */
export interface DraftBase {
  recipients: Recipients;
  subject: string;
  body: BodyParts;
  attachments: Attachment[];
  threading: Omit<ReplyThreading, "subject">;
  /** The draft's From address: kept when it still is one of the mailbox's identities. */
  from: string | null;
}

export interface Assembled {
  composed: Composed;
  /** The message answered or forwarded: the subject or recipients came (in part) from its sender. */
  original: Original | null;
  /** Addresses of a reply-all's original that could not be used (the sender wrote them). */
  skipped: string[];
  /** Gives back the attachment budget taken for mailbox parts: call it once the message is out of memory. */
  release: () => void;
  /** For a person deciding whether to send it (src/sending/): its attachments and the start of its text. */
  review: { attachments: Array<{ filename: string; size: number }>; text: string };
}

/** How much of the body a person reviewing the message is shown. */
const REVIEW_CHARS = 600;

const decodedBytes = (list: readonly Attachment[]) => list.reduce((n, a) => n + a.content.length, 0);

export async function assemble(deps: OutgoingDeps, p: Prepared, base?: DraftBase): Promise<Assembled> {
  const kept = base && !p.attachmentsGiven ? base.attachments : [];
  const { original, located } = await deps.withImap(async (client) => {
    const source = p.reply ?? p.forward;
    const withBody = !!(p.reply?.quote || (p.forward?.as === "inline" && p.forward.quote));
    const original = source ? await readOriginal(client, source.folder, source.uid, p.reply ? "reply_to_uid" : "forward_uid", withBody, deps.content) : null;
    return { original, located: [...(await locateParts(client, p.attach)), ...forwarded(p, original)] };
  });
  const inMemory = decodedBytes(p.attachments) + decodedBytes(kept);
  const fromMailbox = located.reduce((n, l) => n + l.estimate, 0);
  if (inMemory + fromMailbox > MAX_ATTACHMENT_BYTES) throw tooMuch(inMemory + fromMailbox);
  const release = deps.reserveAttachments?.(fromMailbox) ?? (() => {});
  try {
    const fetched = located.length ? await deps.withImap((c) => fetchLocated(c, located, MAX_ATTACHMENT_BYTES - inMemory)) : [];
    const identities = p.identities ?? [{ name: null, address: deps.account.email }];
    const { recipients, skipped } = address(deps, p, original, identities, base);
    const t = threadingOf(p, original, base);
    const from = fromIdentity(p, original, identities, base);
    // The signature of the identity the message goes out from (a reply from an alias: the alias's).
    const signature = p.signed && from.signature ? signatureBlock(from.signature) : null;
    const body = bodyWithOriginal(p, original, signature, base);
    const attachments = [...kept, ...p.attachments, ...fetched];
    const composed = await composeMessage({ from, recipients, ...t, ...body, attachments });
    const review = {
      attachments: attachments.map((a) => ({ filename: a.filename, size: a.content.length })),
      text: (body.text ?? (body.html ? stripTags(body.html, 0, REVIEW_CHARS) : "")).slice(0, REVIEW_CHARS),
    };
    return { composed, original, skipped, release, review };
  } catch (err) {
    release();
    throw err;
  }
}

/** A forward's parts: the original's attachments (inline), or the whole original as message/rfc822. */
function forwarded(p: Prepared, original: Original | null): Located[] {
  if (!p.forward || !original) return [];
  const ref = (part: string) => ({ folder: p.forward!.folder, uid: original.uid, part, argument: "forward_uid" });
  if (p.forward.as === "attachment") return [wholeMessage(ref(""), original.folder, original.size, original.subject)];
  return original.attachments.map((a) => locatePart(ref(a.part), original.folder, original.structure));
}

/** The caller's recipients (an update: the draft's, field by field, unless given), then a reply's. */
/**
 * Whom the message comes from: the identity asked for; a reply's or forward's original's addressed
 * identity (To, Cc, Delivered-To); an updated draft's own From; else the login address.
 */
function fromIdentity(p: Prepared, original: Original | null, identities: Identity[], base?: DraftBase): Identity {
  return p.from ?? (original ? addressedIdentity(identities, original) : null)
    ?? (base?.from ? findIdentity(identities, base.from) : null) ?? identities[0]!;
}

function address(deps: OutgoingDeps, p: Prepared, original: Original | null, identities: Identity[], base?: DraftBase): { recipients: Recipients; skipped: string[] } {
  const pick = (field: "to" | "cc" | "bcc"): Mailbox[] => (base && !p.fields[field] ? base.recipients[field] : p.given[field]);
  let recipients: Recipients = { to: pick("to"), cc: pick("cc"), bcc: pick("bcc") };
  let skipped: string[] = [];
  if (p.reply && original) {
    // Every identity of the mailbox is "me": reply-all never copies one of them.
    ({ recipients, skipped } = replyRecipients(recipients, original, ownAddresses(deps.account, identities), p.reply.all));
  }
  const none = p.reply ? "the message replied to has no address to answer but this mailbox's own: give to" : "at least one recipient is required";
  return { recipients: checkRecipients(recipients, none), skipped };
}

const FWD_PREFIX = /^\s*(fwd?|fw)\s*:/i;

function threadingOf(p: Prepared, original: Original | null, base?: DraftBase): ReplyThreading {
  if (p.reply && original) return replyThreading(original.threading, p.subject);
  const subject = p.subject ?? (p.forward && original ? (FWD_PREFIX.test(original.subject) ? original.subject : `Fwd: ${original.subject}`) : base?.subject ?? "");
  return { subject, ...(base && !p.forward ? base.threading : {}) };
}

/**
 * The new text (an update without one: the draft's), its signature, then the quote or the forwarded
 * message. Only newly written text is signed: a draft's kept text already carries its signature, so
 * an update never adds a second one (and send_draft sends the saved bytes).
 */
function bodyWithOriginal(p: Prepared, original: Original | null, signature: Addition | null, base?: DraftBase): BodyParts {
  const fresh = p.body !== null || !base;
  const written = p.body ?? base?.body ?? {};
  const mine = fresh && signature ? appendBlock(written, signature) : written;
  if (!original) return mine;
  // An update that gives no new text keeps the draft's, which already holds any quote.
  if (p.reply?.quote && fresh) return appendBlock(mine, replyQuote(original));
  if (p.forward?.as === "inline") return appendBlock(mine, forwardBlock(original, p.forward.quote));
  return mine;
}

function tooMuch(total: number): InputError {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  return new InputError("attachments", `${mb(total)} MB of attachments in all (attachments, attach and forwarded parts together); at most ${mb(MAX_ATTACHMENT_BYTES)} MB per message`);
}
