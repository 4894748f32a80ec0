// The cursor of get_changes: opaque to the caller and self-contained (nothing is kept on the server).
// It names the folder and its UIDVALIDITY, the mod-sequence (RFC 7162) and the next UID it had
// seen; on a server without QRESYNC also the UIDs it knew (compact) or their number, to tell what vanished.
import { z } from "zod";
import { InputError } from "../errors.ts";

export interface ChangesCursor {
  path: string;
  uidValidity: string;
  /** HIGHESTMODSEQ as a decimal string; null where the server has no CONDSTORE. */
  modseq: string | null;
  uidNext: number;
  /** Without QRESYNC: how many messages had a UID below uidNext, and (when compact) which. */
  count: number | null;
  set: string | null;
}

const PREFIX = "c1.";
const schema = z.tuple([
  z.string().max(1000), z.string().regex(/^\d{1,20}$/), z.string().regex(/^\d{1,20}$/).nullable(),
  z.number().int().min(1).max(4_294_967_296), z.number().int().min(0).nullable(), z.string().regex(/^[\d:,]*$/).max(4000).nullable(),
]);

export function encodeChangesCursor(c: ChangesCursor): string {
  return PREFIX + Buffer.from(JSON.stringify([c.path, c.uidValidity, c.modseq, c.uidNext, c.count, c.set])).toString("base64url");
}

export function decodeChangesCursor(text: string): ChangesCursor {
  const bad = new InputError("since", "is not a cursor of this server's get_changes (pass the cursor exactly as it came, or leave since out to start)");
  if (!text.startsWith(PREFIX)) throw bad;
  try {
    const [path, uidValidity, modseq, uidNext, count, set] = schema.parse(JSON.parse(Buffer.from(text.slice(PREFIX.length), "base64url").toString("utf8")));
    return { path, uidValidity, modseq, uidNext, count, set };
  } catch {
    throw bad;
  }
}
