// label_email: add or remove labels: Gmail labels where the server has them, else IMAP keywords.
import { z } from "zod";
import { labelEmails } from "../../../mail/write/labels.ts";
import { defineTool } from "../define.ts";
import { folderArg, uidsArg } from "../schemas/args.ts";
import { updatedResult, updatedShape } from "../schemas/updated.ts";

const labelList = (what: string) => z.array(z.string().min(1).max(255)).max(20).default([]).describe(what);

export const labelEmail = defineTool({
  name: "label_email",
  kind: "write",
  config: {
    title: "Add or remove labels",
    description:
      "Adds and/or removes labels on messages (by uid) in one folder. On Gmail these are Gmail labels (a label that does not exist yet is created); " +
      "elsewhere they are IMAP keywords (ASCII words without spaces, e.g. \"project-x\" or \"$Important\"), which mail apps such as Thunderbird show as tags, " +
      "where the folder accepts new keywords (otherwise an error says so and nothing changes). kind says which was used. " +
      "The summaries of get_recent_emails, search_emails and get_email list each message's labels. To move a message use move_email, trash_email or archive_email.",
    inputSchema: {
      folder: folderArg,
      uids: uidsArg,
      add: labelList('Labels to add, e.g. ["Receipts"].'),
      remove: labelList("Labels to remove."),
    },
    outputSchema: {
      ...updatedShape,
      kind: z.enum(["gmail_labels", "keywords"]).describe("gmail_labels on Gmail, keywords (IMAP keywords) elsewhere."),
    },
    // Adds or removes tags only; the same call twice leaves the same labels.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: args.uids, labels: { add: args.add, remove: args.remove } }),
    fromResult: (res) => ({ folder: res.folder }),
  },
  handler: async (args, ctx) => {
    const res = await ctx.withImap((client) => labelEmails(client, args.folder, args.uids, { add: args.add, remove: args.remove }));
    const what = res.kind === "gmail_labels" ? "Gmail labels" : "keywords";
    const change = [args.add.length ? `added ${args.add.join(", ")}` : "", args.remove.length ? `removed ${args.remove.join(", ")}` : ""].filter(Boolean).join("; ");
    return updatedResult(res, (n) => `${what} on ${n} in ${res.folder}: ${change}.`, { kind: res.kind });
  },
});
