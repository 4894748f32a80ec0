// send_draft: send a saved draft exactly as saved, file it in \Sent, remove it from Drafts.
import { z } from "zod";
import { sendDraft as send } from "../../../mail/write/send-draft.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { SPECIAL_USE_HINT, uidArg } from "../schemas/args.ts";
import { deliveryLines } from "./send-email.ts";

export const sendDraft = defineTool({
  name: "send_draft",
  kind: "write",
  config: {
    title: "Send a saved draft",
    description:
      "Sends a saved draft exactly as it is (recipients, subject, text, attachments; Bcc recipients get it without the others seeing them), right away; it cannot be recalled. " +
      "Only send when the person has clearly asked for it. A copy is filed in the Sent folder and the draft is removed from Drafts. " +
      "Change it first with update_draft if needed. Do not retry after a success: the message would go out twice.",
    inputSchema: {
      uid: uidArg.describe("UID of the draft, as draft_email, update_draft or a listing of the Drafts folder returned it."),
      folder: z.string().min(1).max(1000).default("\\Drafts").describe(`Folder of the draft: default the Drafts folder ("\\\\Drafts"), or a path, ${SPECIAL_USE_HINT}.`),
    },
    outputSchema: {
      status: z.enum(["sent", "held_as_draft", "dry_run"]).describe("sent: it went out. held_as_draft: not sent, the draft stays (see reason). dry_run: nothing was sent."),
      message_id: z.string().describe("Message-ID header of the message, with angle brackets."),
      accepted: z.array(z.string()).describe("Recipient addresses the SMTP server accepted (empty unless sent)."),
      rejected: z.array(z.string()).describe("Recipient addresses the SMTP server refused (empty unless sent)."),
      saved_to: z.string().nullable().describe("Path of the Sent folder holding our copy; null when the provider files sent mail itself (or filing failed; see the text)."),
      draft: z.object({ folder: z.string(), uid: z.number().int() }).nullable().describe("Where the draft still is when it was not sent; null once sent."),
      reason: z.string().nullable().describe("Why it was not sent, or null."),
    },
    // Reaches third parties; takes the draft out of Drafts (as a move does), so hosts should confirm;
    // a repeat finds the draft gone.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: [args.uid] }),
    fromResult: (sent) => ({ message_id: sent.message_id, recipients: [...sent.accepted, ...sent.rejected], ...(sent.rejected.length ? { rejected: sent.rejected } : {}) }),
  },
  handler: async (args, ctx) => {
    const { warnings, draft, ...res } = await send(await outgoingDeps(ctx), args.folder, args.uid);
    const structured = { status: "sent" as const, ...res, draft: null, reason: null };
    const lines = [`Sent the draft uid ${draft.uid} from ${draft.folder}. Message-ID: ${res.message_id}.`, ...deliveryLines(res, warnings, true)];
    if (!warnings.some((w) => w.includes("removing the draft"))) lines.push(`The draft was removed from ${draft.folder}.`);
    return ok(structured, lines.join("\n"));
  },
});
