// mark_as_read: set (read=true) or clear (read=false) the \Seen flag on messages of one folder.
import { z } from "zod";
import { markRead } from "../../../mail/write/flags.ts";
import { defineTool } from "../define.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";
import { updatedResult, updatedShape } from "../schemas/updated.ts";

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
    outputSchema: updatedShape,
    // Only flips a flag, and the same call twice leaves the same state.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids, read: args.read }),
    fromResult: (res) => ({ folder: res.folder }), // the path a special-use name stood for
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => markRead(client, args.folder, args.uids, args.read));
    return updatedResult(res, (n) => `Marked ${n} as ${args.read ? "read" : "unread"} in ${res.folder}.`);
  },
});
