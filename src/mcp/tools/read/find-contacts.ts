// find_contacts: the people the mailbox's own history knows (addresses it wrote to from \Sent, and
// senders it answered in INBOX), best first by how often and how recently, matched on name or
// address ignoring case and accents. Kept per token and mailbox in the MCP runtime's memory
// (src/mail/read/contacts/cache.ts), brought up to date on each call with bounded IMAP work.
import { z } from "zod";
import type { Clock } from "../../../clock.ts";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";
import type { ContactsCache } from "../../../mail/read/contacts/cache.ts";
import type { Contact } from "../../../mail/read/contacts/tally.ts";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { senderFor, type IdentityLookup } from "../write/sender.ts";

export interface FindContactsDeps {
  contacts: ContactsCache;
  identities: IdentityLookup;
  clock: Clock;
}

const contact = z.object({
  name: z.string().nullable().describe("The display name last seen with the address, or null."),
  address: z.string(),
  sent: z.number().int().describe("Messages in Sent addressed to it (To, Cc or Bcc)."),
  received: z.number().int().describe("Answered INBOX messages from it."),
  last: z.string().nullable().describe("Date (ISO 8601) of the newest of those messages; null when none had a date."),
});

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : null);
const line = (c: Contact) =>
  `${c.name ? `${c.name} <${c.address}>` : c.address}: sent ${c.sent}, received ${c.received}, last ${iso(c.last)?.slice(0, 10) ?? "?"}`;

export const findContactsTool = ({ contacts, identities, clock }: FindContactsDeps) => defineTool({
  name: "find_contacts",
  kind: "read",
  config: {
    title: "Find contacts",
    description:
      "Finds people this mailbox has corresponded with: addresses it sent mail to and senders whose mail it answered, " +
      "most frequent and most recent first. Use it to get an address right before drafting or sending. " +
      "query matches name or address, ignoring case and accents; without it the top contacts are listed.",
    inputSchema: {
      query: z.string().max(200).optional().describe('Part of a name or address, e.g. "zoe" or "example.com". Omit for the top contacts.'),
      limit: z.number().int().min(1).max(100).default(20).describe("How many contacts to return, 1 to 100. Default 20."),
    },
    outputSchema: { contacts: z.array(contact) },
    annotations: READ_ONLY,
  },
  handler: async (args, ctx) => {
    const account = await ctx.account();
    const own = (await senderFor(identities, ctx, account)).identities.map((i) => i.address);
    const book = contacts.book(ctx.tokenId, account.email);
    const found = await ctx.withImap((client) => book.find(client, { query: args.query ?? null, limit: args.limit, exclude: own, now: clock() }));
    const list = found.map((c) => ({ name: c.name, address: c.address, sent: c.sent, received: c.received, last: iso(c.last) }));
    // Names and addresses were written by the people themselves (and by whoever wrote to them): fenced.
    const text = found.length === 0 ? "No contacts found." :
      fenceUntrusted(found.map(line).join("\n"), "The contacts (one per line: name and address, counts, last date)", "the mailbox's correspondents").text;
    return ok({ contacts: list }, text);
  },
});
