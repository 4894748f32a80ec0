// The cursor of search_emails over every folder (folder "*"): opaque to the caller, self-contained
// (nothing is kept on the server), and exact: it says, per folder searched, where that folder's
// matches stopped, so the next page neither repeats nor skips a message.
import { createHash } from "node:crypto";
import { z } from "zod";
import { InputError } from "../errors.ts";
import type { SearchCriteria } from "./search.ts";

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

const PREFIX = "s1.";
const schema = z.object({
  q: z.string().max(32),
  f: z.array(z.tuple([z.string().max(1000), z.string().max(20).nullable(), z.number().int().min(0).max(4_294_967_296).nullable()])).max(5000),
});

/** A short digest of the criteria, the same for the same search whatever the order of its keys. */
export function queryKey(c: SearchCriteria): string {
  const entries = Object.entries(c).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256").update(JSON.stringify(entries)).digest("base64url").slice(0, 16);
}

export function encodeCursor(c: AllCursor): string {
  const body = { q: c.query, f: c.folders.map((m) => [m.path, m.uidValidity, m.before]) };
  return PREFIX + Buffer.from(JSON.stringify(body)).toString("base64url");
}

export function decodeCursor(text: string, criteria: SearchCriteria): AllCursor {
  const bad = () => new InputError("cursor", "is not a cursor of this server's search_emails (pass next_cursor exactly as it came)");
  if (!text.startsWith(PREFIX)) throw bad();
  let parsed: z.infer<typeof schema>;
  try {
    parsed = schema.parse(JSON.parse(Buffer.from(text.slice(PREFIX.length), "base64url").toString("utf8")));
  } catch {
    throw bad();
  }
  if (parsed.q !== queryKey(criteria)) throw new InputError("cursor", "belongs to a search with other criteria; repeat the criteria of the first page, or start again without cursor");
  return { query: parsed.q, folders: parsed.f.map(([path, uidValidity, before]) => ({ path, uidValidity, before })) };
}
