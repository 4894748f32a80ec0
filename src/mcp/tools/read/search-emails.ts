// search_emails: server-side IMAP SEARCH in one folder or in every folder ("*"), one page of
// summaries, and the total number of matches.
import { z } from "zod";
import { searchAll, MAX_SEARCHED_FOLDERS } from "../../../mail/read/search-all.ts";
import { decodeCursor } from "../../../mail/read/search-cursor.ts";
import { searchEmails as search, type SearchCriteria } from "../../../mail/read/search.ts";
import { READ_ONLY } from "../annotations.ts";
import { cursorSealOf } from "./cursor-seal.ts";
import { defineTool, type ToolArgs } from "../define.ts";
import { ok, ToolInputError } from "../result.ts";
import { beforeUidArg, limitArg, SPECIAL_USE_HINT } from "../schemas/args.ts";
import { nextBeforeUid, summaryLines, summarySchema } from "../schemas/summary.ts";

const day = (what: string) => z.string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "must be a real calendar date (YYYY-MM-DD)")
  .optional()
  .describe(what);

const text = (what: string) => z.string().min(1).max(1000).optional().describe(what);
const bytes = (what: string) => z.number().int().min(0).max(4_294_967_295).optional().describe(what);

const CRITERIA = ["from", "to", "cc", "subject", "text", "since", "before", "unread", "flagged", "answered", "has_attachment", "larger_than", "smaller_than"] as const;

const inputSchema = {
  folder: z.string().min(1).max(1000).default("INBOX")
    .describe(`Folder path as list_mailboxes returns it, ${SPECIAL_USE_HINT}; or "*" for every folder except Trash and Junk (each result names its folder). Default INBOX.`),
  from: text("Substring of the From header (name or address)."),
  to: text("Substring of the To header."),
  cc: text("Substring of the Cc header."),
  subject: text("Substring of the subject."),
  text: text("Substring anywhere in the headers or body."),
  since: day("Sent on or after this day (YYYY-MM-DD, inclusive)."),
  before: day("Sent before this day (YYYY-MM-DD, exclusive)."),
  unread: z.boolean().optional().describe("true: only unread; false: only read."),
  flagged: z.boolean().optional().describe("true: only flagged (starred); false: only unflagged."),
  answered: z.boolean().optional().describe("true: only messages replied to; false: only those not replied to."),
  has_attachment: z.boolean().optional().describe("true: only messages with attachments; false: only those without."),
  larger_than: bytes("Only messages larger than this many bytes (the whole message, attachments included)."),
  smaller_than: bytes("Only messages smaller than this many bytes."),
  limit: limitArg,
  before_uid: beforeUidArg,
  cursor: z.string().max(400_000).optional().describe('With folder "*": the previous page\'s next_cursor, exactly as it came.'),
};

export type SearchArgs = ToolArgs<typeof inputSchema>;

/** The criteria of a call; an argument error when it gives none (also for the search across mailboxes). */
export function criteriaOf(a: SearchArgs): SearchCriteria {
  if (!CRITERIA.some((k) => a[k] !== undefined)) {
    throw new ToolInputError(`give at least one search criterion: ${CRITERIA.join(", ")}. To list the newest messages use get_recent_emails.`);
  }
  return {
    from: a.from, to: a.to, cc: a.cc, subject: a.subject, text: a.text, since: a.since, before: a.before, unread: a.unread,
    flagged: a.flagged, answered: a.answered, hasAttachment: a.has_attachment, largerThan: a.larger_than, smallerThan: a.smaller_than,
  };
}

/** `cursorKey`: the service's cursor key (src/mail/read/cursor-seal.ts cursorKeyOf), from the composition root. */
export const searchEmailsTool = (cursorKey: Uint8Array) => defineTool({
  name: "search_emails",
  kind: "read",
  config: {
    title: "Search emails",
    description:
      "Searches one folder, or every folder with folder \"*\" (all but Trash and Junk; a message filed away or your own reply in Sent is found too), " +
      "by sender, recipient, Cc, subject, any text, date range, read / flagged / answered state, attachments or size; criteria combine with AND. " +
      "Text matches are case-insensitive substrings. Returns the newest matches first and `total` = all matches; " +
      "for the next page pass next_before_uid as before_uid (one folder) or next_cursor as cursor (folder \"*\"). " +
      "Give at least one criterion. Does not mark anything as read.",
    inputSchema,
    outputSchema: {
      folder: z.string().describe('The folder searched, or "*".'),
      folders_searched: z.array(z.string()).describe("Every folder searched (one unless folder was \"*\")."),
      total: z.number().int().describe("Number of messages matching, across all pages (and folders)."),
      emails: z.array(summarySchema),
      next_before_uid: nextBeforeUid,
      next_cursor: z.string().nullable().describe('folder "*" only: pass as cursor for the next page; null when there is none.'),
    },
    annotations: READ_ONLY,
  },
  handler: async (args, ctx) => {
    const criteria = criteriaOf(args);
    if (args.folder === "*") {
      if (args.before_uid !== undefined) throw new ToolInputError('before_uid pages one folder; with folder "*" pass the previous next_cursor as cursor');
      const seal = await cursorSealOf(cursorKey, ctx);
      const cursor = args.cursor === undefined ? null : decodeCursor(seal, args.cursor, criteria);
      const page = await ctx.withImap((client) => searchAll(client, criteria, args.limit, cursor, seal));
      const searched = `${page.folders_searched.length} folder${page.folders_searched.length === 1 ? "" : "s"}`;
      const capped = page.folders_searched.length === MAX_SEARCHED_FOLDERS ? ` (at most ${MAX_SEARCHED_FOLDERS} are searched)` : "";
      const head = `${page.total} message(s) in ${searched} match${capped}; showing ${page.emails.length}, newest first. Folders searched: ${page.folders_searched.join(", ")}.`;
      const body = page.emails.length ? `${head}\n${summaryLines(page.emails, null, true)}` : head;
      return ok({ ...page, next_before_uid: null }, page.next_cursor ? `${body}\nMore matches: call again with the same criteria and cursor set to next_cursor.` : body);
    }
    if (args.cursor !== undefined) throw new ToolInputError('cursor belongs to folder "*"; for one folder page with before_uid');
    const page = await ctx.withImap((client) => search(client, { ...criteria, folder: args.folder, limit: args.limit, beforeUid: args.before_uid ?? null }),
      { examine: args.folder });
    const head = `${page.total} message(s) in ${page.folder} match; showing ${page.emails.length}, newest first:`;
    const structured = { ...page, folders_searched: [page.folder], next_cursor: null };
    return ok(structured, page.emails.length ? `${head}\n${summaryLines(page.emails, page.next_before_uid)}` : `No messages in ${page.folder} match.`);
  },
});
