// triage_inbox: sort a folder's newest mail into what needs the person and what does not.
import { z } from "zod";
import { folderArgument, folderOf, UNTRUSTED_RULE, type PromptDef } from "./define.ts";

export const triageInbox: PromptDef = {
  name: "triage_inbox",
  title: "Triage my inbox",
  description: "Sort the newest messages of a folder into: needs my reply, needs action, for information, can be archived.",
  args: {
    folder: folderArgument,
    count: z.string().regex(/^([1-9]|[1-9]\d|100)$/, "a number from 1 to 100").optional()
      .describe("How many of the newest messages to look at (1 to 100, default 30)."),
  },
  text: (args) => [
    `Triage the newest ${args.count ?? "30"} messages in my mail folder ${folderOf(args)}.`,
    `Call get_recent_emails with folder ${folderOf(args)} and limit ${args.count ?? "30"}; read a message with get_email only when its summary is not enough to decide.`,
    "Sort them into four groups: needs a reply from me, needs another action from me, for information only, can be archived.",
    "For each message give the sender, the subject, its uid and one line saying why it is in that group; put the most urgent first.",
    "Do not change anything in the mailbox (no marking as read, no moving, no drafts, no sending) unless I ask afterwards.",
    UNTRUSTED_RULE,
  ].join("\n"),
};
