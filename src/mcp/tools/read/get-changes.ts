// get_changes: what is new, re-flagged or gone in a folder since a cursor; never changes the mailbox.
import { z } from "zod";
import { ADDED_MAX, getChanges as changes, type Changes } from "../../../mail/read/changes.ts";
import { decodeChangesCursor } from "../../../mail/read/changes-cursor.ts";
import { READ_ONLY } from "../annotations.ts";
import { cursorSealOf } from "./cursor-seal.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { folderArg } from "../schemas/args.ts";
import { summaryLines, summarySchema } from "../schemas/summary.ts";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";

/** `cursorKey`: the service's cursor key (src/mail/read/cursor-seal.ts cursorKeyOf), from the composition root. */
export const getChangesTool = (cursorKey: Uint8Array) => defineTool({
  name: "get_changes",
  kind: "read",
  config: {
    title: "What changed since",
    description:
      "Tells what changed in a folder since an earlier call, without listing everything again: the messages added (as summaries, newest first, at most 100), " +
      "those whose read / flagged / answered state or labels changed, and the uids that vanished (deleted or moved away). " +
      "Call it first without since: it returns only a cursor. Afterwards pass the latest cursor as since; each answer has a new cursor. " +
      "full_resync: true means the old cursor cannot be answered from (the folder was rebuilt): list the folder again (get_recent_emails) and go on with the new cursor. " +
      "Never changes anything in the mailbox.",
    inputSchema: {
      folder: folderArg,
      since: z.string().max(10_000).optional().describe("The cursor of an earlier get_changes on this folder; leave out to start."),
    },
    outputSchema: {
      folder: z.string(),
      cursor: z.string().describe("Pass as since next time."),
      full_resync: z.boolean().describe("true: since could not be answered from; start again from this cursor (the lists are empty)."),
      added: z.array(summarySchema).describe(`Messages that arrived since, newest first (at most ${ADDED_MAX}).`),
      flags_changed: z.array(z.object({
        uid: z.number().int(), seen: z.boolean(), flagged: z.boolean(), answered: z.boolean(), labels: z.array(z.string()),
      })).describe("Messages that were there before whose flags or labels changed: their state now."),
      vanished: z.array(z.number().int()).describe("Uids (of messages there before) that are gone: deleted, or moved to another folder."),
    },
    annotations: READ_ONLY,
  },
  handler: async (args, ctx) => {
    const seal = await cursorSealOf(cursorKey, ctx);
    const since = args.since === undefined ? null : decodeChangesCursor(seal, args.since);
    const res = await ctx.withImap((client) => changes(client, args.folder, since, seal));
    const { addedTotal, mode, ...structured } = res;
    return ok(structured, describe(res, args.since === undefined));
  },
});

function describe(c: Changes, first: boolean): string {
  if (first) return `Cursor for ${c.folder} taken: pass it as since to learn what changes from now on.`;
  if (c.full_resync) return `The cursor can no longer be answered from (${c.folder} was rebuilt or renumbered): list it again, then use the new cursor.`;
  const lines = [`Since the cursor, in ${c.folder}: ${c.addedTotal} added, ${c.flags_changed.length} with changed flags, ${c.vanished.length} gone.`];
  if (c.added.length) lines.push("Added:", summaryLines(c.added, null));
  if (c.addedTotal > c.added.length) lines.push(`(Only the newest ${c.added.length} added are listed; use get_recent_emails for the others.)`);
  if (c.flags_changed.length) {
    // Labels are the owner's, but a mail filter may have made them from a sender's words: fenced too.
    const states = c.flags_changed.map((f) => `uid ${f.uid}: now ${[f.seen ? "read" : "unread", f.flagged ? "flagged" : "", f.answered ? "answered" : "",
      f.labels.length ? `labels: ${f.labels.join(", ")}` : ""].filter(Boolean).join(", ")}`);
    lines.push("Changed flags:", fenceUntrusted(states.join("\n"), "One line per message (uid: state now)", "the mailbox's mail apps and filters").text);
  }
  if (c.vanished.length) lines.push(`Gone: uids ${c.vanished.join(", ")}.`);
  if (c.mode === "plain") lines.push("(This mail server has no CONDSTORE, so changed flags cannot be seen; only arrivals and removals are reported.)");
  return lines.join("\n");
}
