// search_emails: server-side IMAP SEARCH, one page of summaries, and the total number of matches.
import { z } from "zod";
import { searchEmails as search } from "../../../mail/read/search.ts";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok, ToolInputError } from "../result.ts";
import { beforeUidArg, folderArg, limitArg } from "../schemas/args.ts";
import { nextBeforeUid, summaryLines, summarySchema } from "../schemas/summary.ts";

const day = (what: string) => z.string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "must be a real calendar date (YYYY-MM-DD)")
  .optional()
  .describe(what);

const text = (what: string) => z.string().min(1).max(1000).optional().describe(what);

const CRITERIA = ["from", "to", "subject", "text", "since", "before", "unread", "flagged"] as const;

export const searchEmails = defineTool({
  name: "search_emails",
  kind: "read",
  config: {
    title: "Search emails",
    description:
      "Searches one folder on the mail server by sender, recipient, subject, any text, date range, read state or flag; criteria combine with AND. " +
      "Text matches are case-insensitive substrings. Returns the newest matches first, `total` = all matches, and next_before_uid for the next page. " +
      "Give at least one criterion. Does not mark anything as read.",
    inputSchema: {
      folder: folderArg,
      from: text("Substring of the From header (name or address)."),
      to: text("Substring of the To header."),
      subject: text("Substring of the subject."),
      text: text("Substring anywhere in the headers or body."),
      since: day("Sent on or after this day (YYYY-MM-DD, inclusive)."),
      before: day("Sent before this day (YYYY-MM-DD, exclusive)."),
      unread: z.boolean().optional().describe("true: only unread; false: only read."),
      flagged: z.boolean().optional().describe("true: only flagged (starred); false: only unflagged."),
      limit: limitArg,
      before_uid: beforeUidArg,
    },
    outputSchema: {
      folder: z.string(),
      total: z.number().int().describe("Number of messages matching, across all pages."),
      emails: z.array(summarySchema),
      next_before_uid: nextBeforeUid,
    },
    annotations: READ_ONLY,
  },
  handler: async (args, ctx) => {
    if (!CRITERIA.some((k) => args[k] !== undefined)) {
      throw new ToolInputError(`give at least one search criterion: ${CRITERIA.join(", ")}. To list the newest messages use get_recent_emails.`);
    }
    const page = await ctx.withImap((client) => search(client, { ...args, beforeUid: args.before_uid ?? null }));
    const head = `${page.total} message(s) in ${page.folder} match; showing ${page.emails.length}, newest first:`;
    return ok({ ...page }, page.emails.length ? `${head}\n${summaryLines(page.emails, page.next_before_uid)}` : `No messages in ${page.folder} match.`);
  },
});
