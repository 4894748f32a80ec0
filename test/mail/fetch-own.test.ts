// fetchOwn (src/mail/imap/mailbox.ts) runs FETCH through imapflow's command, its answers in one list:
// the connection must not keep them alive after the call. Our client's count of the bytes answering
// the command in flight (src/mail/imap/client.ts) kept that command's request object until the next
// command, and with it the answer handlers and all they collected; once fetchOwn collected through
// the list, a pooled connection held its last answers (every summary of a listing, a message's whole
// source) while it sat idle: at 1,000 idle mailboxes 178–222 KB per open connection instead of 85.
// On a connection as the pool opens it, against the harness Dovecot.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FetchMessageObject, ImapFlow } from "imapflow";
import { fetchByUid, fetchOwn } from "../../src/mail/imap/mailbox.ts";
import { connectImap, DEFAULT_TIMEOUTS } from "../../src/mail/imap/connect.ts";
import { getHarness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";

let client: ImapFlow;
const folder = `FetchOwn-${crypto.randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const h = await getHarness();
  client = await connectImap(testAccount(h.dovecot.users.alice, h.dovecot), DEFAULT_TIMEOUTS, false); // as the pool opens it
  await client.mailboxCreate(folder);
  for (let i = 1; i <= 3; i++) await h.dovecot.deliver("alice", plainText({ subject: `fetch own ${i}` }), folder);
  await client.mailboxOpen(folder, { readOnly: true });
}, 20_000);
afterAll(async () => {
  await client.mailboxDelete(folder).catch(() => {});
  await client.logout();
});

/** Whether the objects fn fetched are still alive once the caller has dropped them. */
async function keptAfter(fn: () => Promise<FetchMessageObject[]>): Promise<boolean> {
  const refs = await (async () => (await fn()).map((m) => new WeakRef(m)))();
  expect(refs.length).toBeGreaterThan(0);
  Bun.gc(true);
  await Bun.sleep(0); // one turn for the promise machinery to let go of its last references
  Bun.gc(true);
  return refs.some((r) => r.deref() !== undefined);
}

test("the answers of a FETCH are not kept by the connection once the caller drops them", async () => {
  expect(await keptAfter(() => fetchOwn(client, "1:*", { uid: true, envelope: true, flags: true }, false))).toBe(false);
  expect(await keptAfter(async () => [(await fetchByUid(client, 1, { uid: true, source: true }))!])).toBe(false);
});

test("'*' is the last message, as imapflow's fetch() resolves it", async () => {
  const [last] = await fetchOwn(client, "*", { uid: true }, false);
  expect(last!.uid).toBe(3);
});
