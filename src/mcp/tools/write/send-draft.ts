// send_draft: send a saved draft exactly as saved (src/mail/write/draft/wire-bytes.ts) through the send
// gate (src/sending/gate.ts): sent, it is filed in \Sent and removed from Drafts; held for the
// person's say-so, it stays where it is.
import { z } from "zod";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";
import { formatAddress } from "../../../mail/read/display-addresses.ts";
import { readDraft } from "../../../mail/write/draft/read-saved.ts";
import { reviewOfDraft } from "../../../mail/write/draft/review-view.ts";
import { draftToSend } from "../../../mail/write/draft/wire-bytes.ts";
import type { OutgoingDeps } from "../../../mail/write/outgoing.ts";
import { SENDING_TOOL_META } from "../../confirm/review-card.ts";
import type { OutgoingMail, SendResult } from "../../../sending/request.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { SPECIAL_USE_HINT, uidArg } from "../schemas/args.ts";
import { sendAboutActivity, sendResultShape } from "../schemas/send-result.ts";

/** The draft as the gate takes it; `hold` keeps its attachment bytes counted until the call ends. */
async function draftMail(deps: OutgoingDeps, folder: string, uid: number, hold: (release: () => void) => void): Promise<OutgoingMail> {
  const draft = await deps.withImap((c) => readDraft(c, folder, uid));
  // What the message holds in memory while it goes out, about its attachments' decoded size.
  hold(deps.reserveAttachments?.(Math.floor((draft.raw.length * 3) / 4)) ?? (() => {}));
  const msg = draftToSend(draft.raw, deps.account.email, new Date());
  const review = await reviewOfDraft(msg.stored);
  const who = (l: typeof review.recipients.to) => l.map(formatAddress).join(", ");
  // Whoever wrote the draft (this app, another one, or a reply-all from a stranger's message): fenced.
  const lines = [`Subject: ${review.subject || "(no subject)"}`, `To: ${who(review.recipients.to)}`,
    ...(review.recipients.cc.length ? [`Cc: ${who(review.recipients.cc)}`] : []), ...(review.recipients.bcc.length ? [`Bcc: ${who(review.recipients.bcc)}`] : [])];
  return {
    ...msg, subject: review.subject, recipients: review.recipients, attachments: review.attachments, preview: review.text, after: {},
    draft: { folder: draft.folder, uid: draft.uid },
    describe: `The draft uid ${draft.uid} from ${draft.folder}.\n${fenceUntrusted(lines.join("\n"), "The draft's subject and recipients", "whoever wrote the draft").text}`,
  };
}

export const sendDraft = defineTool({
  name: "send_draft",
  kind: "write",
  config: {
    title: "Send a saved draft",
    description:
      "Sends a saved draft exactly as it is (recipients, subject, text, attachments; Bcc recipients get it without the others seeing them). " +
      "Only send when the person has clearly asked for it. Sent, a copy is filed in the Sent folder and the draft is removed from Drafts. " +
      "Depending on what the person chose when connecting, it goes out at once, or they are asked first, or it stays in Drafts for them: " +
      "status says which and reason says what to tell them. dry_run: true says exactly what would be sent without sending. " +
      "Change it first with update_draft if needed. The same draft asked again within 10 minutes is not sent twice: the repeat gets the first outcome.",
    inputSchema: {
      uid: uidArg.describe("UID of the draft, as draft_email, update_draft or a listing of the Drafts folder returned it."),
      folder: z.string().min(1).max(1000).default("\\Drafts").describe(`Folder of the draft: default the Drafts folder ("\\\\Drafts"), or a path, ${SPECIAL_USE_HINT}.`),
      dry_run: z.boolean().default(false).describe("true: only say what would be sent and what the send policy would do; nothing is sent or asked."),
    },
    outputSchema: sendResultShape,
    // Reaches third parties; takes the draft out of Drafts (as a move does), so hosts should confirm;
    // a repeat within 10 minutes gets the first outcome.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    _meta: SENDING_TOOL_META,
  },
  activity: {
    fromArgs: (args) => ({ folder: args.folder, uids: [args.uid] }),
    // The draft's folder and uid (from the arguments) stay; the decision, Message-ID and who got it are added.
    fromResult: (r) => sendAboutActivity(r as SendResult),
  },
  handler: async (args, ctx) => {
    const releases: Array<() => void> = [];
    try {
      const deps = await outgoingDeps(ctx);
      return await ctx.sending.send({
        tool: "send_draft", identity: { folder: args.folder, uid: args.uid }, dryRun: args.dry_run,
        compose: () => draftMail(deps, args.folder, args.uid, (release) => releases.push(release)),
      });
    } finally {
      for (const release of releases) release();
    }
  },
});
