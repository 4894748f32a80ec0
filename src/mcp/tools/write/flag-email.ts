// flag_email: star (flagged=true) or unstar messages: the \Flagged flag, which Gmail shows as a star.
import { z } from "zod";
import { setFlag } from "../../../mail/write/flags.ts";
import { defineTool } from "../define.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";
import { updatedResult, updatedShape } from "../schemas/updated.ts";

export const flagEmail = defineTool({
  name: "flag_email",
  kind: "write",
  config: {
    title: "Flag or unflag (star)",
    description:
      "Flags messages (flagged: true, the default) or removes the flag (flagged: false) in one folder, by uid: the IMAP \\Flagged flag, " +
      "shown as a star in Gmail and a flag in Outlook and Apple Mail. updated counts the messages found; uids not in the folder are listed in the text.",
    inputSchema: {
      folder: folderArg,
      uids: uidsArg,
      flagged: z.boolean().default(true).describe("true flags (stars) the messages (default), false removes the flag."),
    },
    outputSchema: updatedShape,
    // Only flips a flag, and the same call twice leaves the same state.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids, flagged: args.flagged }),
    fromResult: (res) => ({ folder: res.folder }),
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => setFlag(client, args.folder, args.uids, "\\Flagged", args.flagged));
    return updatedResult(res, (n) => `${args.flagged ? "Flagged" : "Unflagged"} ${n} in ${res.folder}.`);
  },
});
