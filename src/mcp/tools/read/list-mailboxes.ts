// list_mailboxes: every folder with its path (the handle the other tools take) and counts.
import { z } from "zod";
import { listMailboxes as list, MAX_FOLDERS } from "../../../mail/read/mailboxes.ts";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";

const mailbox = z.object({
  path: z.string().describe("Pass this as `folder` to the other tools."),
  name: z.string().describe("Last segment of the path."),
  delimiter: z.string().describe("Hierarchy separator in paths."),
  special_use: z.string().nullable().describe('RFC 6154 role such as "\\\\Sent", "\\\\Drafts", "\\\\Trash", or null.'),
  flags: z.array(z.string()),
  messages: z.number().int().nullable(),
  unseen: z.number().int().nullable(),
  subscribed: z.boolean(),
  account: z.string().nullable().optional().describe("The mailbox the folder is in; present when the list spans several mailboxes."),
});

export const listMailboxes = defineTool({
  name: "list_mailboxes",
  kind: "read",
  config: {
    title: "List folders",
    description:
      "Lists every folder (mailbox) in the connected account with its exact path, special role (Sent, Drafts, Trash, Junk, Archive...), " +
      "message count and unread count. Call it first when you need a folder other than INBOX.",
    inputSchema: {},
    outputSchema: {
      mailboxes: z.array(mailbox),
      omitted: z.number().int().describe(`Folders the server lists beyond the first ${MAX_FOLDERS}, not shown (0 for any real account).`),
    },
    annotations: READ_ONLY,
  },
  handler: async (_args, ctx) => {
    const { mailboxes, omitted, uncounted } = await ctx.withImap((client) => list(client));
    const text = mailboxes.map((m) =>
      `${m.path}${m.special_use ? ` (${m.special_use})` : ""}: ${m.messages ?? "?"} messages, ${m.unseen ?? "?"} unread`).join("\n");
    const notes = [
      ...(omitted ? [`(Only the first ${MAX_FOLDERS} of the ${mailboxes.length + omitted} folders the server lists are shown.)`] : []),
      ...(uncounted ? [`(The mail server answered slowly: ${uncounted} folders are shown without counts, "?".)`] : []),
    ];
    return ok({ mailboxes, omitted }, [text || "No folders.", ...notes].join("\n"));
  },
});
