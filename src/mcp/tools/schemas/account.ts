// The `account` argument every mailbox tool takes, and what results add on a connection with several
// mailboxes (docs/design.md §3 "Several mailboxes in one connection", docs/tools.md "Accounts").
import { z } from "zod";

export const accountArg = z.string().min(3).max(320).optional()
  .describe("Which connected mailbox (its address, as list_accounts returns it). May be left out when the connection has one mailbox; " +
    "get_recent_emails, search_emails and list_mailboxes without it read every mailbox of the connection.");

export const accountOut = z.string().optional().describe("The mailbox (address) this result is from; present when the connection has several.");

export const accountsFailedOut = z.array(z.object({ account: z.string(), error: z.string() })).optional()
  .describe("Reading across mailboxes: the mailboxes that could not be read, and why; the others answered.");

export const spanCursorArg = z.string().max(20_000).optional()
  .describe("Reading across several mailboxes: the previous page's next_cursor, exactly as it came.");

export const spanNextCursorOut = z.string().nullable().optional()
  .describe("Reading across several mailboxes: pass as cursor for the next page; null when there is none.");
