// find_message: find a message the person describes in their own words.
import { z } from "zod";
import { folderArgument, quoted, UNTRUSTED_RULE, type PromptDef } from "./define.ts";

export const findMessage: PromptDef = {
  name: "find_message",
  title: "Find a message",
  description: "Find a message from a description: who sent it, roughly when, what it was about.",
  args: {
    description: z.string().min(1).max(2000).describe("The message you are looking for, in your own words."),
    folder: folderArgument.describe("Folder to search (default INBOX; Sent, Archive and others are searched too when it is not there)."),
  },
  text: (args) => {
    const folder = quoted(args.folder?.trim() || "INBOX");
    return [
      `Find the email I describe here: ${quoted(args.description ?? "")}`,
      `Use search_emails in folder ${folder} with the criteria that fit (from, to, subject, text, since/before as YYYY-MM-DD); ` +
        "try a few narrower or broader searches if the first finds nothing, and look in other folders from list_mailboxes " +
        "(for example Sent or Archive) when it is not there.",
      "List the best matches with their folder, uid, sender, date and subject, most likely first; open one with get_email only to confirm it.",
      "Do not change anything in the mailbox.",
      UNTRUSTED_RULE,
    ].join("\n");
  },
};
