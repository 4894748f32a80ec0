// Argument fields several tools take (read and write). Descriptions are written for the model
// choosing arguments.
import { z } from "zod";

/** What every folder argument accepts besides a path (docs/design.md §6). */
export const SPECIAL_USE_HINT =
  'or a special-use name that finds the provider\'s folder of that use whatever it is called: "\\Inbox", "\\Sent", "\\Drafts", "\\Trash", "\\Archive", "\\Junk", "\\All"';

export const folderArg = z.string().min(1).max(1000).default("INBOX")
  .describe(`Folder path exactly as list_mailboxes returns it, e.g. "INBOX" or "Archive/2024", ${SPECIAL_USE_HINT}. Default INBOX.`);

export const uidArg = z.number().int().positive().max(4_294_967_295) // RFC 3501 §2.3.1.1: 32-bit
  .describe("The message's IMAP UID in that folder, as returned in a summary's uid field.");

export const uidsArg = z.array(z.number().int().positive().max(4_294_967_295)).min(1).max(100)
  .describe("UIDs of the messages in that folder (1 to 100), as returned in the summaries' uid field.");

export const limitArg = z.number().int().min(1).max(100).default(20)
  .describe("How many messages to return, 1 to 100. Default 20.");

export const beforeUidArg = z.number().int().positive().max(4_294_967_296).optional()
  .describe("Paging cursor: only messages with a uid below this one. Pass the previous page's next_before_uid.");
