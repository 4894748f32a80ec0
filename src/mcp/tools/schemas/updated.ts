// What the tools that change flags answer (mark_as_read, flag_email, label_email): the folder, how
// many messages were found, and the uids that were not there.
import { z } from "zod";
import { uidsGone } from "../../../mail/imap/uids.ts";
import type { MarkResult } from "../../../mail/write/flags.ts";
import { ok } from "../result.ts";

export const updatedShape = {
  folder: z.string(),
  updated: z.number().int().describe("How many of the given messages were found and are now in the requested state."),
};

const messages = (n: number) => `${n} message${n === 1 ? "" : "s"}`;

/** The result: `structured` plus the text `done(n)`; an error when none of the uids was there. */
export function updatedResult(res: MarkResult, done: (n: string) => string, structured: Record<string, unknown> = {}) {
  if (!res.updated) throw uidsGone(res.missing, res.folder, "Nothing was changed.");
  const lines = [done(messages(res.updated))];
  if (res.missing.length) lines.push(`Not found (moved or deleted?): uids ${res.missing.join(", ")}.`);
  return ok({ folder: res.folder, updated: res.updated, ...structured }, lines.join("\n"));
}
