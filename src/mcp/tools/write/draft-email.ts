// draft_email: compose a message and save it to the \Drafts folder without sending it.
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import { saveDraft } from "../../../mail/write/draft/save.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";
import { composedText, originNote } from "./composed-text.ts";
import { senderFor, type IdentityLookup } from "./sender.ts";

export const draftOutput = {
  folder: z.string().describe("Path of the Drafts folder."),
  uid: z.number().int().nullable().describe("UID of the draft in that folder (null only if the server could not say)."),
  message_id: z.string().describe("Message-ID header of the draft, with angle brackets."),
};

export const draftEmail = (identities: IdentityLookup) => defineTool({
  name: "draft_email",
  kind: "write",
  config: {
    title: "Save a draft",
    description:
      "Composes an email and saves it in the Drafts folder without sending it, so the person can review it (and send it with send_draft or from their mail app). " +
      "Use this instead of send_email whenever the person has not clearly asked for the message to be sent. " +
      "Reply: reply_to_uid (and reply_folder when not INBOX), reply_all to answer everyone; the draft is threaded, the subject defaults to \"Re: ...\" and the original is quoted below (quote: false leaves it out). " +
      "Forward: forward_uid (and forward_folder), with its attachments attached by the server. Attach parts already in the mailbox with attach; files from elsewhere with attachments (base64). " +
      "markdown instead of text/html gives both an HTML and a plain-text part. Returns the Drafts folder path, the draft's uid there and its Message-ID.",
    inputSchema: messageFields,
    outputSchema: draftOutput,
    // Only adds a message to the person's own mailbox; each call adds another draft.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: messageActivity,
    fromResult: (draft) => ({ folder: draft.folder, uids: draft.uid === null ? [] : [draft.uid], message_id: draft.message_id }),
  },
  handler: async (args, ctx) => {
    // Base64 attachments count against the token's budget before they are decoded (docs/design.md §7).
    const release = ctx.reserveAttachments(attachmentBytes(args.attachments));
    try {
      const deps = await outgoingDeps(ctx);
      const { assembled, ...res } = await saveDraft(deps, args, await senderFor(identities, ctx, deps.account));
      const where = `${res.folder}${res.uid === null ? "" : ` (uid ${res.uid})`}`;
      const head = `Draft saved in ${where}. Message-ID: ${res.message_id}. It has not been sent. ${originNote(assembled, args.reply_to_uid !== undefined)}`;
      return ok(res, `${head.trim()}\n${composedText(assembled)}`);
    } finally {
      release();
    }
  },
});
