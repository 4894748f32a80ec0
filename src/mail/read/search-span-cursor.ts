// The cursor of search_emails over every folder of every mailbox of a connection (folder "*", no
// account): per mailbox, by its place in the connection, the folder marks of ./search-cursor.ts, or
// that it has not answered yet. Sealed (./cursor-seal.ts) with the
// grant's key and the connection's mailboxes, so a cursor of another connection, of one mailbox's
// "*" search or of a connection whose mailboxes changed since is refused before any IMAP work. All
// mailboxes together hold at most MAX_SEARCHED_FOLDERS marks, as one mailbox's cursor does, which
// keeps it within the `cursor` argument's bound.
import { z } from "zod";
import { sealCursor, type CursorSeal } from "./cursor-seal.ts";
import { folderMarksSchema, fromTuple, MAX_SEARCHED_FOLDERS, openSearchCursor, toTuple, type FolderMark } from "./search-cursor.ts";
import type { SearchCriteria } from "./search.ts";

/** Where one mailbox stands: its folder marks (all 0 when it has no more), or null: from the start (it never answered). */
export type MailboxMarks = FolderMark[] | null;

export interface SpanCursor {
  query: string;
  /** One entry per mailbox of the connection, in the connection's order. */
  mailboxes: MailboxMarks[];
}

const KIND = "s3";
const entry = folderMarksSchema(MAX_SEARCHED_FOLDERS).nullable();
const schema = z.object({ q: z.string().max(32), m: z.array(entry).max(MAX_SEARCHED_FOLDERS) })
  .refine((b) => b.m.reduce((n, e) => n + (e?.length ?? 0), 0) <= MAX_SEARCHED_FOLDERS, "too many folders");

/** The seal of a connection's spanning search: its grant's key, bound to its mailboxes (position and address). */
export function spanSeal(grantKey: Uint8Array, mailboxes: readonly { position: number; account: string | null }[]): CursorSeal {
  return { key: grantKey, mailbox: `search-span\0${mailboxes.map((m) => `${m.position}:${m.account ?? ""}`).join("\0")}` };
}

export function encodeSpanCursor(seal: CursorSeal, c: SpanCursor): string {
  const m = c.mailboxes.map((e) => e?.map(toTuple) ?? null);
  return sealCursor(seal, KIND, JSON.stringify({ q: c.query, m }));
}

/** The cursor's content for `count` mailboxes; an InputError naming `cursor` for anything this server did not make for them. */
export function decodeSpanCursor(seal: CursorSeal, text: string, criteria: SearchCriteria, count: number): SpanCursor {
  const parsed = openSearchCursor(seal, KIND, text, schema, criteria, "across this connection's mailboxes", (b) => b.m.length === count);
  return { query: parsed.q, mailboxes: parsed.m.map((e) => e?.map(fromTuple) ?? null) };
}
