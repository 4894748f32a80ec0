// What the tools that move messages answer (move_email, trash_email, archive_email; docs/design.md §6):
// where each uid went, and the readable text of it.
import { z } from "zod";
import type { MoveResult } from "../../../mail/write/move.ts";
import { uidsGone } from "../../../mail/imap/uids.ts";
import type { ActivityDetails } from "../../../store/activity.ts";
import { ok } from "../result.ts";

export const movedShape = {
  from: z.string().describe("Source folder path."),
  to: z.string().describe("Destination folder path."),
  moved: z.array(z.object({
    uid: z.number().int().describe("UID in the source folder."),
    new_uid: z.number().int().nullable().describe("UID in the destination (null if the server does not report it)."),
  })),
};

/** The activity row keeps the real paths, not special-use names. */
export const movedActivity = (res: Pick<MoveResult, "from" | "to" | "moved">): ActivityDetails => ({ folder: res.from, destination: res.to, moved: res.moved });

/** The tool result of a move; an error when none of the uids was there. */
export function movedResult(res: MoveResult, verb = "Moved") {
  if (!res.moved.length) throw uidsGone(res.missing, res.from, "Nothing was moved.");
  const n = res.moved.length;
  const lines = [`${verb} ${n} message${n === 1 ? "" : "s"} from ${res.from} to ${res.to}:`];
  lines.push(...res.moved.map((m) => `  uid ${m.uid} -> ${m.new_uid ?? "(new uid unknown)"} in ${res.to}`));
  if (res.missing.length) lines.push(`Not found in ${res.from} (moved or deleted?): uids ${res.missing.join(", ")}.`);
  return ok({ from: res.from, to: res.to, moved: res.moved }, lines.join("\n"));
}
