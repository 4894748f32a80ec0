// The cursor of get_changes: opaque to the caller and self-contained (nothing is kept on the server).
// It names the folder and its UIDVALIDITY, the mod-sequence (RFC 7162) and the next UID it had
// seen; on a server without QRESYNC also the UIDs it knew (compact) or their number, to tell what vanished.
// Sealed (./cursor-seal.ts): only a cursor this server made for this grant and mailbox is taken back.
import { z } from "zod";
import { InputError } from "../errors.ts";
import { openCursor, sealCursor, type CursorSeal } from "./cursor-seal.ts";

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

// c2: sealed (c1 cursors were not, and are refused).
const KIND = "c2";
const schema = z.tuple([
  z.string().max(1000), z.string().regex(/^\d{1,20}$/), z.string().regex(/^\d{1,20}$/).nullable(),
  z.number().int().min(1).max(4_294_967_296), z.number().int().min(0).nullable(), z.string().regex(/^[\d:,]*$/).max(4000).nullable(),
]);

export function encodeChangesCursor(seal: CursorSeal, c: ChangesCursor): string {
  return sealCursor(seal, KIND, JSON.stringify([c.path, c.uidValidity, c.modseq, c.uidNext, c.count, c.set]));
}

/** The cursor's content; an InputError naming `since` for anything this server did not make for this grant. */
export function decodeChangesCursor(seal: CursorSeal, text: string): ChangesCursor {
  const bad = new InputError("since", "is not a cursor of this server's get_changes for this mailbox (pass the cursor exactly as it came, or leave since out to start)");
  const body = openCursor(seal, KIND, text);
  if (body === null) throw bad;
  try {
    const [path, uidValidity, modseq, uidNext, count, set] = schema.parse(JSON.parse(body));
    return { path, uidValidity, modseq, uidNext, count, set };
  } catch {
    throw bad;
  }
}
