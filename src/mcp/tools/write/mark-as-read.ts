// mark_as_read: set (read=true) or clear (read=false) the \Seen flag on messages of one folder.
import { z } from "zod";
import { markRead } from "../../../mail/write/flags.ts";
import { uidsGone } from "../../../mail/imap/uids.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";

const plural = (n: number) => `${n} message${n === 1 ? "" : "s"}`;

export const markAsRead = defineTool({
  name: "mark_as_read",
  kind: "write",
  config: {
    title: "Mark as read or unread",
    description:
      "Marks messages as read (read: true, the default) or unread (read: false) in one folder, by uid. " +
      "updated counts the messages found (already-read ones included); uids not in the folder are listed in the text. " +
      "Reading a message with get_email does not mark it read: call this when the person wants it marked.",
    inputSchema: {
      folder: folderArg,
      uids: uidsArg,
      read: z.boolean().default(true).describe("true marks as read (default), false as unread."),
    },
    outputSchema: {
      folder: z.string(),
      updated: z.number().int().describe("How many of the given messages were found and are now in the requested state."),
    },
    // Only flips a flag, and the same call twice leaves the same state.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids, read: args.read }),
    fromResult: (res) => ({ folder: res.folder }), // the path a special-use name stood for
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => markRead(client, args.folder, args.uids, args.read));
    if (!res.updated) {
      throw uidsGone(res.missing, res.folder, "Nothing was changed.");
    }
    const lines = [`Marked ${plural(res.updated)} as ${args.read ? "read" : "unread"} in ${res.folder}.`];
    if (res.missing.length) lines.push(`Not found (moved or deleted?): uids ${res.missing.join(", ")}.`);
    return ok({ folder: res.folder, updated: res.updated }, lines.join("\n"));
  },
});
