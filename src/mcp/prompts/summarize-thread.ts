// summarize_thread: the conversation a message belongs to, summarised.
import { folderArgument, folderOf, uidArgument, UNTRUSTED_RULE, type PromptDef } from "./define.ts";

export const summarizeThread: PromptDef = {
  name: "summarize_thread",
  title: "Summarise a thread",
  description: "Summarise the conversation a message belongs to: what was said, what was decided, what is still open.",
  args: { folder: folderArgument, uid: uidArgument },
  text: (args, has) => [
    `Summarise the email conversation that the message with uid ${args.uid} in my mail folder ${folderOf(args)} belongs to.`,
    has("get_thread")
      ? `Call get_thread with folder ${folderOf(args)} and uid ${args.uid}; it returns the conversation's messages, oldest first.`
      : `Read it with get_email (folder ${folderOf(args)}, uid ${args.uid}), then find the other messages of the conversation with ` +
        "search_emails (same subject without Re:/Fwd:, in this folder and in the Sent folder) and read the ones you need with get_email.",
    "Give: who took part, a short account of the conversation in order, what was decided, the open questions, and who is waiting on whom.",
    "Do not change anything in the mailbox.",
    UNTRUSTED_RULE,
  ].join("\n"),
};
