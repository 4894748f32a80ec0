// What composing a message takes (draft_email, send_email, update_draft; docs/design.md §6): the
// arguments and every check that needs no server, run before the first byte goes to IMAP or SMTP.
import type { ImapFlow } from "imapflow";
import type { MailAccount } from "../account.ts";
import type { ContentReaders } from "../content/readers.ts";
import { decodeAttachments, type Attachment, type AttachmentArg } from "../compose/message.ts";
import type { BodyParts } from "../compose/quote.ts";
import { renderMarkdown } from "../compose/markdown.ts";
import { parseGivenRecipients, type Recipients } from "../compose/recipients.ts";
import { InputError } from "../errors.ts";
import { checkPartRefs, type PartRef, type PartRefArg } from "./mailbox-parts.ts";
import { findIdentity, formatIdentity, type Identity, type Sender } from "../identities/identity.ts";

export interface OutgoingDeps {
  account: MailAccount;
  /** retryOnDrop: false for APPEND, which a blind retry after a dropped connection could file twice. */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: { retryOnDrop?: boolean }): Promise<T>;
  /**
   * Reserves bytes of attachments taken from the mailbox against the token's budget for messages in
   * the making (src/mcp/token-caps/send-budget.ts); returns the release. Absent: no budget (tests).
   */
  reserveAttachments?(bytes: number): () => void;
  /** HTML→text for quoting an original, on the token's share (src/mail/content/readers.ts). */
  content: ContentReaders;
}

/** For APPEND and SMTP: a blind retry after a dropped connection could do it twice. */
export const ONCE = { retryOnDrop: false };

/** The composing arguments as the tools receive them (docs/design.md §6, docs/tools.md). */
export interface OutgoingArgs {
  to?: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  markdown?: string;
  reply_to_uid?: number;
  reply_folder?: string;
  reply_all?: boolean;
  quote?: boolean;
  forward_uid?: number;
  forward_folder?: string;
  forward_as?: "inline" | "attachment";
  attach?: PartRefArg[];
  attachments?: AttachmentArg[];
  /** One of the mailbox's identities (its address); default: the one a reply's original was addressed to, else the login. */
  from?: string;
  /** false: no signature on this message (default true). */
  signature?: boolean;
}

export type Kind = "draft" | "send" | "update";

export interface Prepared {
  /** The caller's own recipients; `fields` says which of to/cc/bcc were given at all. */
  given: Recipients;
  fields: { to: boolean; cc: boolean; bcc: boolean };
  /** As given; a reply or forward without one gets "Re: …" / "Fwd: …", an update keeps the draft's. */
  subject?: string;
  /** The new text: null when none was given (an update keeps the draft's). */
  body: BodyParts | null;
  /** Base64 attachments, decoded. */
  attachments: Attachment[];
  /** Mailbox parts to attach, fetched server-side. */
  attach: PartRef[];
  /** attachments or attach was given (an update then replaces the draft's attachments). */
  attachmentsGiven: boolean;
  reply: { folder: string; uid: number; all: boolean; quote: boolean } | null;
  forward: { folder: string; uid: number; as: "inline" | "attachment"; quote: boolean } | null;
  /** The mailbox's identities (login first), when the caller knows them; else the login address alone. */
  identities: Identity[] | null;
  /** The identity asked for with `from`, or null to choose one (../identities/identity.ts addressedIdentity). */
  from: Identity | null;
  /** Whether newly written text is signed (with the signature of the identity it goes out from); false for signature: false. */
  signed: boolean;
}

/** `sender`: the mailbox's identities with their signatures (src/mail/identities/); without it, the login alone, unsigned. */
export function prepare(args: OutgoingArgs, kind: Kind, sender?: Sender): Prepared {
  checkCombination(args);
  const from = args.from === undefined ? null : chooseFrom(args.from, sender?.identities ?? []);
  const given = parseGivenRecipients(args);
  if (!given.to.length && args.reply_to_uid === undefined && kind !== "update") {
    throw new InputError("to", "at least one recipient is required (a reply, with reply_to_uid, may leave it out)");
  }
  if (args.subject !== undefined && /[\r\n]/.test(args.subject)) throw new InputError("subject", "must be a single line");
  if (args.subject === undefined && args.reply_to_uid === undefined && args.forward_uid === undefined && kind !== "update") {
    throw new InputError("subject", "is required unless reply_to_uid or forward_uid is given");
  }
  const p: Prepared = {
    given,
    fields: { to: args.to !== undefined, cc: args.cc !== undefined, bcc: args.bcc !== undefined },
    ...(args.subject !== undefined ? { subject: args.subject } : {}),
    body: bodyOf(args),
    attachments: decodeAttachments(args.attachments),
    attach: checkPartRefs(args.attach),
    attachmentsGiven: args.attachments !== undefined || args.attach !== undefined,
    reply: args.reply_to_uid === undefined ? null
      : { folder: args.reply_folder ?? "INBOX", uid: args.reply_to_uid, all: args.reply_all ?? false, quote: args.quote ?? true },
    forward: args.forward_uid === undefined ? null
      : { folder: args.forward_folder ?? "INBOX", uid: args.forward_uid, as: args.forward_as ?? "inline", quote: args.quote ?? true },
    identities: sender?.identities ?? null,
    from,
    signed: args.signature !== false,
  };
  if (kind === "send" && isEmpty(p)) throw new InputError("text", "give text, html, markdown, attachments, attach or forward_uid: an empty message is refused");
  return p;
}

/** `from` must be one of the mailbox's identities: refused here, before any IMAP or SMTP traffic. */
function chooseFrom(address: string, identities: readonly Identity[]): Identity {
  const found = findIdentity(identities, address);
  if (found) return found;
  const list = identities.map(formatIdentity).join(", ") || "only the login address";
  throw new InputError("from", `${JSON.stringify(address)} is not an address this mailbox sends as. Its identities: ${list}. ` +
    "Other addresses are added by the person on the setup form or their account page, never by a tool.");
}

/** Arguments that only make sense together, or not at all together. */
function checkCombination(args: OutgoingArgs): void {
  if (args.markdown !== undefined && (args.text !== undefined || args.html !== undefined)) {
    throw new InputError("markdown", "give markdown alone (both parts are made from it), or text and/or html, not both");
  }
  if (args.reply_to_uid !== undefined && args.forward_uid !== undefined) {
    throw new InputError("forward_uid", "a message is either a reply (reply_to_uid) or a forward (forward_uid), not both");
  }
  if (args.reply_all && args.reply_to_uid === undefined) throw new InputError("reply_all", "needs reply_to_uid, the message to reply to");
  if (args.reply_folder !== undefined && args.reply_to_uid === undefined) throw new InputError("reply_folder", "needs reply_to_uid");
  for (const name of ["forward_folder", "forward_as"] as const) {
    if (args[name] !== undefined && args.forward_uid === undefined) throw new InputError(name, "needs forward_uid, the message to forward");
  }
}

/** markdown gives both parts from one source; otherwise text and html as given. */
function bodyOf(args: OutgoingArgs): BodyParts | null {
  if (args.markdown !== undefined) return renderMarkdown(args.markdown);
  if (args.text === undefined && args.html === undefined) return null;
  return { ...(args.text !== undefined ? { text: args.text } : {}), ...(args.html !== undefined ? { html: args.html } : {}) };
}

const isEmpty = (p: Prepared) =>
  !(p.body?.text || p.body?.html) && !p.attachments.length && !p.attach.length && !p.forward && !(p.reply?.quote);
