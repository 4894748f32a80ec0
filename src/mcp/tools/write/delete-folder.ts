// delete_folder: remove an empty folder; never one holding mail, INBOX, or a special-use folder.
import { deleteFolder as remove } from "../../../mail/write/folders.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { existingPathArg, folderPathShape } from "../schemas/folder-path.ts";

export const deleteFolder = defineTool({
  name: "delete_folder",
  kind: "write",
  config: {
    title: "Delete an empty folder",
    description:
      "Deletes a folder that is empty: no messages and no subfolders (move or trash its messages first). " +
      "INBOX and the special folders (Sent, Drafts, Trash, Archive, Junk…) are never deleted. This server never deletes mail.",
    inputSchema: { path: existingPathArg("The empty folder to delete") },
    outputSchema: folderPathShape,
    // Takes the folder away for good: hosts should confirm. A repeat finds it gone.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.path }),
    fromResult: (res) => ({ folder: res.path }),
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => remove(client, args.path), { retryOnDrop: false });
    return ok({ path: res.path }, `Deleted the empty folder ${res.path}.`);
  },
});
