// confirm_send: the review card's buttons (src/views/review-card.ts). Visible to the app only: listed
// and callable just for clients that render MCP Apps, marked `visibility: ["app"]` so hosts keep it
// from the model. Its `review` argument is the signed, single-use token the send gate put in the
// held message's result `_meta` (src/sending/review-answer.ts checks it).
import { z } from "zod";
import { APP_ONLY_TOOL_META } from "../../confirm/review-card.ts";
import type { SendResult } from "../../../sending/request.ts";
import { defineTool } from "../define.ts";
import { sendActivity, sendResultShape } from "../schemas/send-result.ts";

export const confirmSend = defineTool({
  name: "confirm_send",
  kind: "write",
  audience: "app",
  config: {
    title: "Send or keep a reviewed email",
    description:
      "Used by the review card only, when the person presses Send or Keep as draft on a message held for their review. " +
      "Not for the model: a message is sent only by the person's own click.",
    inputSchema: {
      review: z.string().min(1).max(8192).describe("The review token from the held message's result _meta (mailbox-mcp/review.token)."),
      decision: z.enum(["send", "keep_as_draft"]).describe("The person's choice."),
    },
    outputSchema: sendResultShape,
    // Sends to third parties when the person chose to; the token is single-use.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    _meta: APP_ONLY_TOOL_META,
  },
  activity: {
    fromArgs: () => ({}),
    fromResult: (r) => sendActivity(r as SendResult),
  },
  handler: (args, ctx) => ctx.sending.confirmReview(args.review, args.decision),
});
