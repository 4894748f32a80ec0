// unsubscribe: leaves the mailing list a message came from. RFC 8058's one-click POST when the
// message offers it (https only, public addresses only, no redirect followed, 5 s, body ignored:
// src/mail/net/pinned-fetch.ts, the rules of client metadata documents); else the mailto: request
// of List-Unsubscribe (RFC 2369) sent through the send gate like any message, from the identity the
// list message was addressed to (as a reply goes out: To, Cc, Delivered-To), else the login; else it
// says the message offers no way. A write tool: every call is in the activity log.
import { z } from "zod";
import { composeMessage } from "../../../mail/compose/message.ts";
import { parseMailto } from "../../../mail/compose/mailto.ts";
import { addressedIdentity, type AddressedTo } from "../../../mail/identities/identity.ts";
import { fetchByUid, withMailbox } from "../../../mail/imap/mailbox.ts";
import { headerBlock } from "../../../mail/mime/header-block.ts";
import { headerView } from "../../../mail/mime/headers.ts";
import { uidNotFound } from "../../../mail/imap/uids.ts";
import { FetchProblem, pinnedFetch } from "../../../mail/net/pinned-fetch.ts";
import { headerFields } from "../../../mail/read/sender/header-fields.ts";
import { unsubscribeOffer, type UnsubscribeOffer } from "../../../mail/read/sender/unsubscribe-header.ts";
import type { OutgoingMail, SendResult } from "../../../sending/request.ts";
import { SENDING_TOOL_META } from "../../confirm/review-card.ts";
import { defineTool } from "../define.ts";
import { ok, toolError, ToolInputError } from "../result.ts";
import { folderArg, uidArg } from "../schemas/args.ts";
import { sendAboutActivity, sendResultShape } from "../schemas/send-result.ts";
import { senderFor, type IdentityLookup } from "./sender.ts";

/** What the one-click request may reach (the operator's MAILBOX_MCP_ALLOW_PRIVATE_HOSTS) and who it says it is. */
export interface WebPolicy {
  allowPrivateHosts: boolean;
  version: string;
}

const ONE_CLICK_TIMEOUT_MS = 5000;

const FIELDS = ["list-unsubscribe", "list-unsubscribe-post", "to", "cc", "delivered-to", "x-original-to"];

/** What the message offers, and whom it was addressed to (the mailto: request goes out from that identity). */
async function offerOf(ctx: { withImap: <T>(fn: (c: import("imapflow").ImapFlow) => Promise<T>) => Promise<T> }, folder: string, uid: number):
  Promise<{ offer: UnsubscribeOffer | null; addressed: AddressedTo }> {
  const headers = await ctx.withImap((client) => withMailbox(client, folder, async (box) => {
    const msg = await fetchByUid(client, uid, { uid: true, headers: FIELDS });
    if (!msg) throw await uidNotFound(client, box, uid);
    return msg.headers;
  }, { readOnly: true, freshness: "verify" }));
  const h = headerView(headerBlock(headers));
  const delivered = [...h.addresses("delivered-to"), ...h.addresses("x-original-to")].flatMap((a) => (a.address ? [a.address] : []));
  return {
    offer: unsubscribeOffer(headerFields(headers, "list-unsubscribe"), headerFields(headers, "list-unsubscribe-post")),
    addressed: { to: h.addresses("to"), cc: h.addresses("cc"), deliveredTo: delivered },
  };
}

const shape = {
  method: z.enum(["one_click", "mailto"]).describe("one_click: the list's https link was posted to (RFC 8058); mailto: an unsubscribe email was sent through the send rules."),
  status: z.enum(["unsubscribed", "sent", "held_as_draft", "dry_run"]).describe("unsubscribed: the list accepted the one-click request; sent / held_as_draft / dry_run as for send_email."),
  target: z.string().describe("The link or address used (written by the sender of the message)."),
  ...z.object(sendResultShape).omit({ status: true }).partial().shape,
};

/** `identities`: the mailbox's send-as addresses, one of which the mailto: request may go out from. */
export const unsubscribeTool = (web: WebPolicy, identities: IdentityLookup) => defineTool({
  name: "unsubscribe",
  kind: "write",
  config: {
    title: "Unsubscribe from a mailing list",
    description:
      "Leaves the mailing list a message came from (see its unsubscribe field). When the message offers one-click unsubscribe, the server makes that request itself (https only); " +
      "otherwise it sends the unsubscribe email the message asks for, through the same rules as send_email (the person may be asked first or it may be held as a draft). " +
      "Refused when the message offers neither. dry_run: true says what would be done without doing it. Only when the person asked to unsubscribe.",
    inputSchema: {
      folder: folderArg,
      uid: uidArg,
      dry_run: z.boolean().default(false).describe("true: only say which way would be used and where to; nothing is sent."),
    },
    outputSchema: shape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    _meta: SENDING_TOOL_META,
  },
  activity: {
    fromArgs: (a) => ({ folder: a.folder, uids: [a.uid] }),
    // The message's folder and uid stay. The mailto way is a message sent (the list's address, decision,
    // Message-ID; never the subject or body the link asks for); the one-click way sends no mail.
    fromResult: (r) => {
      const { method, target } = r as { method?: string; target?: string };
      if (method !== "mailto") return {};
      const list = parseMailto(target ?? "")?.to;
      return { ...sendAboutActivity(r as SendResult), ...(list ? { recipients: [list] } : {}) };
    },
  },
  handler: async (args, ctx) => {
    const { offer, addressed } = await offerOf(ctx, args.folder, args.uid);
    if (offer?.one_click && offer.https) {
      const target = offer.https;
      if (args.dry_run) return ok({ method: "one_click", status: "dry_run", target }, "Dry run: the one-click unsubscribe link would be posted to (RFC 8058). Nothing was sent.");
      try {
        await pinnedFetch(new URL(target), {
          allowPrivateHosts: web.allowPrivateHosts, timeoutMs: ONE_CLICK_TIMEOUT_MS, maxBytes: 64 * 1024, userAgent: `mailbox-mcp/${web.version}`,
          what: "The unsubscribe link", post: "List-Unsubscribe=One-Click", ok: (s) => s >= 200 && s < 300,
        });
      } catch (err) {
        // The list's server failed, not the caller's arguments: a tool error saying what happened.
        if (err instanceof FetchProblem) return toolError(`Not unsubscribed: ${err.message} Nothing else was tried; the mailto: way, if any, was not used.`);
        throw err;
      }
      return ok({ method: "one_click", status: "unsubscribed", target }, "Unsubscribed: the list accepted the one-click request (RFC 8058).");
    }
    const mailto = offer?.mailto ? parseMailto(offer.mailto) : null;
    if (!mailto) throw new ToolInputError("This message offers no way to unsubscribe that this server can use (no one-click https link and no mailto: address in List-Unsubscribe).");
    const account = await ctx.account();
    // The list knows the subscriber by the address its mail came to: the request must come from it.
    const from = addressedIdentity((await senderFor(identities, ctx, account)).identities, addressed) ?? account.email;
    const compose = async (): Promise<OutgoingMail> => {
      const c = await composeMessage({ from, recipients: { to: [{ name: null, address: mailto.to }], cc: [], bcc: [] }, subject: mailto.subject, text: mailto.body });
      return {
        messageId: c.messageId, stored: c.stored, wire: c.wire, envelope: c.envelope, subject: c.subject, recipients: c.recipients,
        attachments: [], preview: mailto.body, after: {}, describe: "An unsubscribe request to the list's address (List-Unsubscribe).",
      };
    };
    const answer = await ctx.sending.send({ tool: "unsubscribe", identity: { folder: args.folder, uid: args.uid }, dryRun: args.dry_run, compose });
    if ("structuredContent" in answer && answer.structuredContent) answer.structuredContent = { ...answer.structuredContent, method: "mailto", target: offer!.mailto };
    return answer;
  },
});
