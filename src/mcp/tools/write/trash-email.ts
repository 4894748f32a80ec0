// trash_email: move messages to the provider's Trash, whatever it is called; never a permanent delete.
import { trashEmails } from "../../../mail/write/trash.ts";
import { defineTool } from "../define.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";
import { movedActivity, movedResult, movedShape } from "../schemas/moved.ts";

export const trashEmail = defineTool({
  name: "trash_email",
  kind: "write",
  config: {
    title: "Move to Trash",
    description:
      "Deletes messages the way a mail app does: moves them (by uid) to the Trash folder of this mailbox, found by its role whatever the provider calls it " +
      "(Gmail's \"[Gmail]/Trash\", Outlook's \"Deleted Items\"). Nothing is deleted permanently: the person can restore them, and move_email with the new_uid " +
      "moves one back. Refused for messages already in Trash (this server never empties it). Returns each uid's new_uid in Trash.",
    inputSchema: { folder: folderArg, uids: uidsArg },
    outputSchema: movedShape,
    // Takes messages away from where the person expects them: hosts should confirm. A repeat finds the uids gone.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids }),
    fromResult: movedActivity,
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => trashEmails(client, args.folder, args.uids), { retryOnDrop: false });
    return movedResult(res);
  },
});
