// update_draft: replace a saved draft by one with some fields changed; the new draft gets a new uid.
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import { updateDraft as update } from "../../../mail/write/draft/update.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { SPECIAL_USE_HINT, uidArg } from "../schemas/args.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";
import { composedText, originNote } from "./composed-text.ts";
import { draftOutput } from "./draft-email.ts";
import { senderFor, type IdentityLookup } from "./sender.ts";

export const updateDraft = (identities: IdentityLookup) => defineTool({
  name: "update_draft",
  kind: "write",
  config: {
    title: "Change a saved draft",
    description:
      "Replaces a saved draft by a new version: the fields given replace the draft's, those left out keep its values " +
      "(to, cc, bcc, subject; text/html/markdown replace the whole body; attachments or attach replace its attachments, otherwise they are kept). " +
      "The new draft gets a new uid (returned); the old one is removed only after the new one is saved. " +
      "Takes the same fields as draft_email (reply_to_uid re-threads and quotes, forward_uid adds a forward). Only drafts can be changed (the \\Draft flag, or in the Drafts folder).",
    inputSchema: {
      uid: uidArg.describe("UID of the draft, as draft_email or a listing of the Drafts folder returned it."),
      folder: z.string().min(1).max(1000).default("\\Drafts").describe(`Folder of the draft: default the Drafts folder ("\\\\Drafts"), or a path, ${SPECIAL_USE_HINT}.`),
      ...messageFields,
    },
    outputSchema: draftOutput,
    // Rewrites the person's draft (the old version is gone afterwards): not merely additive.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  activity: {
    fromArgs: (args) => ({ ...messageActivity(args), folder: args.folder, uids: [args.uid] }),
    fromResult: (draft) => ({ folder: draft.folder, new_uid: draft.uid, message_id: draft.message_id }),
  },
  handler: async (args, ctx) => {
    const release = ctx.reserveAttachments(attachmentBytes(args.attachments));
    try {
      const deps = await outgoingDeps(ctx);
      const { assembled, warnings, replaced, ...res } = await update(deps, args, await senderFor(identities, ctx, deps.account));
      const where = `${res.folder}${res.uid === null ? "" : ` (uid ${res.uid})`}`;
      const head = `Draft uid ${replaced} replaced by the new version in ${where}. Message-ID: ${res.message_id}. It has not been sent. ` +
        originNote(assembled, args.reply_to_uid !== undefined);
      return ok(res, [head.trim(), composedText(assembled, true), ...warnings].join("\n"));
    } finally {
      release();
    }
  },
});
