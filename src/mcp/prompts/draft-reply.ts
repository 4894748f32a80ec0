// draft_reply: a reply to one message, saved as a draft for the person to review; never sent.
import { z } from "zod";
import { folderArgument, folderOf, quoted, uidArgument, UNTRUSTED_RULE, type PromptDef } from "./define.ts";

export const draftReply: PromptDef = {
  name: "draft_reply",
  title: "Draft a reply",
  description: "Read one message and save a reply to it as a draft (not sent), following your instructions.",
  args: {
    folder: folderArgument,
    uid: uidArgument,
    instructions: z.string().max(2000).optional().describe("What the reply should say, its tone or length."),
  },
  text: (args) => [
    `Draft a reply to the message with uid ${args.uid} in my mail folder ${folderOf(args)}.`,
    `First read it with get_email (folder ${folderOf(args)}, uid ${args.uid}).`,
    args.instructions ? `My instructions for the reply: ${quoted(args.instructions)}` : "Keep the reply short, friendly and to the point.",
    `Then save it with draft_email, with reply_to_uid ${args.uid} and reply_folder ${folderOf(args)}, so it is threaded as a reply.`,
    "Do not send it: show me the draft and where it was saved.",
    UNTRUSTED_RULE,
  ].join("\n"),
};
