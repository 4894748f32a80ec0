// get_recent_emails: the newest messages of a folder, a page at a time.
import { z } from "zod";
import { knownNewest, recentEmails } from "../../../mail/read/recent.ts";
import { SUMMARY_ITEMS } from "../../../mail/read/summary.ts";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { beforeUidArg, folderArg, limitArg } from "../schemas/args.ts";
import { nextBeforeUid, summaryLines, summarySchema } from "../schemas/summary.ts";
import type { ToolArgs } from "../define.ts";
import type { ToolContext } from "../context.ts";
import type { Page } from "../../../mail/read/pages.ts";

const inputSchema = {
  folder: folderArg,
  limit: limitArg,
  before_uid: beforeUidArg,
  unread_only: z.boolean().default(false).describe("Only unread messages. Default false."),
};

/**
 * The page without its readable text: what a read across mailboxes asks of each (it writes one text
 * for the merged page, so each mailbox's would be thrown away) and what the handler words.
 */
export const recentPage = (args: ToolArgs<typeof inputSchema>, ctx: ToolContext, planned?: number): Promise<Page> => ctx.withImap((client) => recentEmails(client, {
  folder: args.folder, limit: args.limit, beforeUid: args.before_uid ?? null, unreadOnly: args.unread_only, planned,
}), { examine: args.folder, ...(args.unread_only || args.before_uid !== undefined ? {} : { prefetch: { items: SUMMARY_ITEMS, limit: args.limit } }) });

/** The newest page's UIDs and dates as the open connection knows them, for planning a read across mailboxes; null for other pages. */
const knownPage = (args: ToolArgs<typeof inputSchema>, ctx: ToolContext) =>
  (args.unread_only || args.before_uid !== undefined ? null : ctx.peekImap?.((client) => knownNewest(client, args.folder, args.limit)) ?? null);

const tool = defineTool({
  name: "get_recent_emails",
  kind: "read",
  config: {
    title: "Get recent emails",
    description:
      "Returns summaries (uid, sender, recipients, subject, date, read/flagged state, attachments) of the newest messages in a folder, " +
      "newest first. Page back with before_uid = the previous result's next_before_uid. Set unread_only to see only unread mail. " +
      "Does not mark anything as read. Use get_email with a uid for the full text.",
    inputSchema,
    outputSchema: { folder: z.string(), emails: z.array(summarySchema), next_before_uid: nextBeforeUid },
    annotations: READ_ONLY,
  },
  handler: async (args, ctx) => {
    const page = await recentPage(args, ctx);
    const head = `${page.emails.length} ${args.unread_only ? "unread " : ""}message(s) in ${page.folder}, newest first:`;
    return ok({ ...page }, page.emails.length ? `${head}\n${summaryLines(page.emails, page.next_before_uid)}` : `No ${args.unread_only ? "unread " : ""}messages in ${page.folder}${args.before_uid ? ` below uid ${args.before_uid}` : ""}.`);
  },
});

/** The tool, with what a read across mailboxes asks of each (../../accounts/run.ts): `answer`, its structured answer alone, and `peek`. */
export const getRecentEmails = Object.assign(tool, {
  answer: (args: Record<string, unknown>, ctx: ToolContext, planned?: number): Promise<object> => recentPage(args as ToolArgs<typeof inputSchema>, ctx, planned),
  peek: (args: Record<string, unknown>, ctx: ToolContext) => knownPage(args as ToolArgs<typeof inputSchema>, ctx),
});
