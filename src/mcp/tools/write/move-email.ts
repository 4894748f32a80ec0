// move_email: move messages to another folder, returning their new uids there.
import { z } from "zod";
import { moveEmails } from "../../../mail/write/move.ts";
import { defineTool } from "../define.ts";
import { folderArg, SPECIAL_USE_HINT, uidsArg } from "../schemas/args.ts";
import { movedActivity, movedResult, movedShape } from "../schemas/moved.ts";

export const moveEmail = defineTool({
  name: "move_email",
  kind: "write",
  config: {
    title: "Move to another folder",
    description:
      "Moves messages (by uid) from one folder to another, e.g. to Archive, Trash or a project folder. " +
      "A message gets a new uid in the destination: the result maps each old uid to its new_uid there; use those from now on. " +
      "destination must be an existing folder path exactly as list_mailboxes returns it, or a special-use name such as \"\\\\Archive\"; an unknown one is an error listing the folders.",
    inputSchema: {
      folder: folderArg,
      uids: uidsArg,
      destination: z.string().min(1).max(1000).describe(`Path of the folder to move to, e.g. "Projects/2024" (see list_mailboxes), ${SPECIAL_USE_HINT}.`),
    },
    outputSchema: movedShape,
    // Not additive: the messages leave the source folder (moving to Trash is how mail gets deleted),
    // so clients should confirm. Not idempotent: a repeat finds the uids gone.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, destination: args.destination, uids: args.uids }),
    fromResult: movedActivity, // paths, not special-use names
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => moveEmails(client, args.folder, args.uids, args.destination), { retryOnDrop: false });
    return movedResult(res);
  },
});
