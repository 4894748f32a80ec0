// draft_email: compose a message and save it to the \Drafts folder without sending it.
import { z } from "zod";
import { saveDraft } from "../../../mail/write/save-draft.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";

export const draftEmail = defineTool({
  name: "draft_email",
  kind: "write",
  config: {
    title: "Save a draft",
    description:
      "Composes an email and saves it in the Drafts folder without sending it, so the person can review and send it from their mail app. " +
      "Use this instead of send_email whenever the person has not clearly asked for the message to be sent. " +
      "For a reply, pass reply_to_uid (and reply_folder when not INBOX): the draft is threaded and the subject defaults to \"Re: ...\". " +
      "Returns the Drafts folder path, the draft's uid there and its Message-ID.",
    inputSchema: messageFields,
    outputSchema: {
      folder: z.string().describe("Path of the Drafts folder."),
      uid: z.number().int().nullable().describe("UID of the draft in that folder (null only if the server could not say)."),
      message_id: z.string().describe("Message-ID header of the draft, with angle brackets."),
    },
    // Only adds a message to the person's own mailbox; each call adds another draft.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: messageActivity,
    fromResult: (draft) => ({ folder: draft.folder, uids: draft.uid === null ? [] : [draft.uid], message_id: draft.message_id }),
  },
  handler: async (args, ctx) => {
    const { subject, ...res } = await saveDraft(await outgoingDeps(ctx), args);
    const where = `${res.folder}${res.uid === null ? "" : ` (uid ${res.uid})`}`;
    return ok(res, `Draft "${subject}" to ${[args.to].flat().join(", ")} saved in ${where}. Message-ID: ${res.message_id}. It has not been sent.`);
  },
});
