// rename_folder: rename (or move in the hierarchy) a folder of the person's own.
import { renameFolder as rename } from "../../../mail/write/folders.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { existingPathArg, folderPathShape, newPathArg } from "../schemas/folder-path.ts";

export const renameFolder = defineTool({
  name: "rename_folder",
  kind: "write",
  config: {
    title: "Rename a folder",
    description:
      "Renames a folder, with its messages and subfolders; a new_path under another parent moves it there. " +
      "INBOX and the special folders (Sent, Drafts, Trash, Archive, Junk…) are never renamed, and new_path must not exist yet. Returns the new path.",
    inputSchema: {
      path: existingPathArg("The folder to rename"),
      new_path: newPathArg("Its new path"),
    },
    outputSchema: folderPathShape,
    // Nothing is removed (the messages go with the folder) and it can be renamed back; a repeat finds the old path gone.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.path, new_path: args.new_path }),
    fromResult: (res) => ({ new_path: res.path }),
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => rename(client, args.path, args.new_path), { retryOnDrop: false });
    return ok({ path: res.path }, `Renamed the folder ${args.path} to ${res.path}.`);
  },
});
