// archive_email: move messages to the Archive folder; on Gmail, out of the folder into All Mail.
import { archiveEmails } from "../../../mail/write/trash.ts";
import { defineTool } from "../define.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";
import { movedActivity, movedResult, movedShape } from "../schemas/moved.ts";

export const archiveEmail = defineTool({
  name: "archive_email",
  kind: "write",
  config: {
    title: "Archive",
    description:
      "Archives messages (by uid): moves them to the mailbox's Archive folder, found by its role whatever it is called; on Gmail, which has none, " +
      "takes them out of the folder (usually the Inbox) into All Mail, as Gmail's own Archive button does. Returns each uid's new_uid there. " +
      "An error lists the folders when the mailbox has no archive folder (use move_email to a folder of your choice then).",
    inputSchema: { folder: folderArg, uids: uidsArg },
    outputSchema: movedShape,
    // The messages stay in the mailbox, only out of the folder; a repeat finds the uids gone.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids }),
    fromResult: movedActivity,
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => archiveEmails(client, args.folder, args.uids), { retryOnDrop: false });
    return movedResult(res, "Archived");
  },
});
