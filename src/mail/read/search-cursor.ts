// The cursor of search_emails over every folder (folder "*"): opaque to the caller, self-contained
// (nothing is kept on the server), and exact: it says, per folder searched, where that folder's
// matches stopped, so the next page neither repeats nor skips a message. Sealed (./cursor-seal.ts):
// only a cursor this server made for this grant and mailbox is taken back, and it holds at most
// MAX_SEARCHED_FOLDERS folders, each once, as the first page does.
import { createHash } from "node:crypto";
import { z } from "zod";
import { InputError } from "../errors.ts";
import { openCursor, sealCursor, type CursorSeal } from "./cursor-seal.ts";
import type { SearchCriteria } from "./search.ts";

/** The most folders one search covers; more are named in the text as not searched. */
export const MAX_SEARCHED_FOLDERS = 200;

/** Per folder: its path, its UIDVALIDITY when it was first searched, and where its matches go on. */
export interface FolderMark {
  path: string;
  uidValidity: string | null;
  /** null: from the newest match; n: matches below uid n; 0: no more matches. */
  before: number | null;
}

export interface AllCursor {
  /** Which criteria it belongs to: a cursor passed with other criteria would page something else. */
  query: string;
  folders: FolderMark[];
}

// s2: sealed (s1 cursors were not, and are refused).
const KIND = "s2";

/** One folder mark as a cursor writes it: [path, uidValidity, before]; at most `max` of them, each folder once. */
export const folderMarksSchema = (max: number) =>
  z.array(z.tuple([z.string().max(1000), z.string().max(20).nullable(), z.number().int().min(0).max(4_294_967_296).nullable()]))
    .max(max)
    .refine((f) => new Set(f.map(([path]) => path)).size === f.length, "a folder appears twice");

export type MarkTuple = [path: string, uidValidity: string | null, before: number | null];
export const toTuple = (m: FolderMark): MarkTuple => [m.path, m.uidValidity, m.before];
export const fromTuple = ([path, uidValidity, before]: MarkTuple): FolderMark => ({ path, uidValidity, before });

const schema = z.object({ q: z.string().max(32), f: folderMarksSchema(MAX_SEARCHED_FOLDERS) });

/** A short digest of the criteria, the same for the same search whatever the order of its keys. */
export function queryKey(c: SearchCriteria): string {
  const entries = Object.entries(c).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256").update(JSON.stringify(entries)).digest("base64url").slice(0, 16);
}

export function encodeCursor(seal: CursorSeal, c: AllCursor): string {
  const body = { q: c.query, f: c.folders.map(toTuple) };
  return sealCursor(seal, KIND, JSON.stringify(body));
}

/** The cursor's content; an InputError naming `cursor` for anything this server did not make for this grant. */
export function decodeCursor(seal: CursorSeal, text: string, criteria: SearchCriteria): AllCursor {
  const parsed = openSearchCursor(seal, KIND, text, schema, criteria, "for this mailbox");
  return { query: parsed.q, folders: parsed.f.map(fromTuple) };
}

/**
 * A search cursor's body (this one's or ./search-span-cursor.ts'): opened, checked against `body`
 * and against the criteria it was made for. An InputError naming `cursor` for anything this server
 * did not make `whose` (the refusal's words: "for this mailbox"), or that `fits` refuses.
 */
export function openSearchCursor<S extends z.ZodType<{ q: string }>>(seal: CursorSeal, kind: string, text: string, body: S,
  criteria: SearchCriteria, whose: string, fits: (b: z.infer<S>) => boolean = () => true): z.infer<S> {
  const bad = () => new InputError("cursor", `is not a cursor of this server's search_emails ${whose} (pass next_cursor exactly as it came)`);
  const opened = openCursor(seal, kind, text);
  if (opened === null) throw bad();
  let parsed: z.infer<S>;
  try {
    // Sealed by this server, so well-formed; checked again all the same: the bounds are the tool's own.
    parsed = body.parse(JSON.parse(opened));
  } catch {
    throw bad();
  }
  if (!fits(parsed)) throw bad();
  if (parsed.q !== queryKey(criteria)) throw new InputError("cursor", "belongs to a search with other criteria; repeat the criteria of the first page, or start again without cursor");
  return parsed;
}
