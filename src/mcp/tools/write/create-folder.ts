// create_folder: a new folder to file mail into.
import { createFolder as create } from "../../../mail/write/folders.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { folderPathShape, newPathArg } from "../schemas/folder-path.ts";

export const createFolder = defineTool({
  name: "create_folder",
  kind: "write",
  config: {
    title: "Create a folder",
    description:
      "Creates a folder (mailbox), e.g. to file messages into with move_email. A folder that already exists is left as it is (the text says so).",
    inputSchema: { path: newPathArg("Path of the new folder") },
    outputSchema: folderPathShape,
    // Only adds; a second call finds the folder there and changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.path }),
    fromResult: (res) => ({ folder: res.path }),
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => create(client, args.path));
    return ok({ path: res.path }, res.created ? `Created the folder ${res.path}.` : `The folder ${res.path} already exists; nothing was changed.`);
  },
});
