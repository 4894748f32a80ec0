// get_changes through the SDK client on the harness Dovecot (QRESYNC, RFC 7162), with a second real
// IMAP client making the changes; and the fallbacks for servers without QRESYNC or CONDSTORE, on the
// same Dovecot with those capabilities hidden from our client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { connectImap } from "../../src/mail/imap/connect.ts";
import { getChanges as changesOf } from "../../src/mail/read/changes.ts";
import { decodeChangesCursor, encodeChangesCursor } from "../../src/mail/read/changes-cursor.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let other: ImapFlow; // alice's phone
const tag = () => randomBytes(4).toString("hex");
const SEAL = { key: new Uint8Array(32), mailbox: "test" };
/** get_changes' mail-layer half, the cursor opened as the tool opens it. */
const getChanges = (client: ImapFlow, folder: string, since: string | null) =>
  changesOf(client, folder, since === null ? null : decodeChangesCursor(SEAL, since), SEAL);

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port)));
  other = await loginImap(h.dovecot, h.dovecot.users.alice);
}, 30_000);
afterAll(async () => {
  await mcp.close();
  await other.logout();
  await srv.stop();
});

async function seeded(count: number): Promise<{ folder: string; uids: number[] }> {
  const folder = `Changes-${tag()}`;
  await other.mailboxCreate(folder);
  for (let i = 0; i < count; i++) await h.dovecot.deliver("alice", plainText({ subject: `${folder} #${i}` }), folder);
  return { folder, uids: (await findBySubject(other, folder, folder)).map((m) => m.uid) };
}

/** The other client: adds one message, flags one, expunges one. */
async function change(folder: string, flag: number, expunge: number, subject: string): Promise<void> {
  await h.dovecot.deliver("alice", plainText({ subject }), folder);
  const lock = await other.getMailboxLock(folder);
  try {
    await other.messageFlagsAdd(String(flag), ["\\Flagged", "$Later"], { uid: true });
    await other.messageDelete(String(expunge), { uid: true });
  } finally {
    lock.release();
  }
}

async function flagsOf(folder: string): Promise<string[]> {
  return (await findBySubject(other, folder, "")).map((m) => `${m.uid}:${[...m.flags].sort().join(" ")}`);
}

describe("get_changes on a QRESYNC server", () => {
  test("reports what another client added, re-flagged and expunged; then nothing; never changes the mailbox", async () => {
    const { folder, uids } = await seeded(3);
    await callOk(mcp, "get_recent_emails", { folder }); // the pooled connection has the folder selected already
    const first = await callOk(mcp, "get_changes", { folder });
    expect(first).toMatchObject({ folder, full_resync: false, added: [], flags_changed: [], vanished: [] });
    const subject = `${folder} new`;
    await change(folder, uids[0]!, uids[1]!, subject);
    const before = await flagsOf(folder);
    const res = await callOk(mcp, "get_changes", { folder, since: first.cursor });
    expect(res.added.map((e: { subject: string; seen: boolean }) => [e.subject, e.seen])).toEqual([[subject, false]]);
    expect(res.flags_changed).toEqual([{ uid: uids[0], seen: false, flagged: true, answered: false, labels: ["$Later"] }]);
    expect(res.vanished).toEqual([uids[1]]);
    expect(res.full_resync).toBe(false);
    const quiet = await callOk(mcp, "get_changes", { folder, since: res.cursor });
    expect(quiet).toMatchObject({ added: [], flags_changed: [], vanished: [], full_resync: false });
    const quieter = await callOk(mcp, "get_changes", { folder, since: quiet.cursor });
    expect(quieter).toMatchObject({ added: [], flags_changed: [], vanished: [] });
    expect(await flagsOf(folder)).toEqual(before); // not even \Seen on the new message
  });

  test("each change is reported once across successive cursors", async () => {
    const { folder, uids } = await seeded(4);
    let cursor = (await callOk(mcp, "get_changes", { folder })).cursor;
    const steps: Array<[string, number, number]> = [[`${folder} a`, uids[0]!, uids[1]!], [`${folder} b`, uids[2]!, uids[3]!]];
    for (const [subject, flag, expunge] of steps) {
      await change(folder, flag, expunge, subject);
      const res = await callOk(mcp, "get_changes", { folder, since: cursor });
      expect(res.added.map((e: { subject: string }) => e.subject)).toEqual([subject]);
      expect(res.vanished).toEqual([expunge]);
      expect(res.flags_changed.map((f: { uid: number }) => f.uid)).toEqual([flag]);
      cursor = res.cursor;
    }
  });

  test("a cursor from before the folder was recreated (new UIDVALIDITY): full_resync and a new cursor", async () => {
    const { folder } = await seeded(1);
    const first = await callOk(mcp, "get_changes", { folder });
    // The pooled connection moves on (Dovecot keeps serving a deleted folder to a session that has it selected).
    await callOk(mcp, "get_recent_emails", { folder: "INBOX", limit: 1 });
    await other.mailboxDelete(folder);
    await other.mailboxCreate(folder);
    const res = await callOk(mcp, "get_changes", { folder, since: first.cursor });
    expect(res).toMatchObject({ full_resync: true, added: [], flags_changed: [], vanished: [] });
    expect(res.cursor).not.toBe(first.cursor);
    expect((await callOk(mcp, "get_changes", { folder, since: res.cursor })).full_resync).toBe(false);
  });

  test("the folder deleted and re-created by another client while our connection has it selected: full_resync, then the new folder's changes", async () => {
    const { folder } = await seeded(2);
    const first = await callOk(mcp, "get_changes", { folder }); // the pooled connection keeps the folder selected
    await other.mailboxDelete(folder);
    await other.mailboxCreate(folder);
    // Before: Dovecot kept serving the selected (deleted) folder's view: full_resync false, nothing changed.
    const res = await callOk(mcp, "get_changes", { folder, since: first.cursor });
    expect(res).toMatchObject({ full_resync: true, added: [], flags_changed: [], vanished: [] });
    await h.dovecot.deliver("alice", plainText({ subject: `${folder} anew` }), folder);
    const next = await callOk(mcp, "get_changes", { folder, since: res.cursor });
    expect([next.full_resync, next.added.map((e: { subject: string }) => e.subject)]).toEqual([false, [`${folder} anew`]]);
  });

  test("since that is no cursor, or another folder's: an argument error", async () => {
    const { folder } = await seeded(0);
    const bad = await call(mcp, "get_changes", { folder, since: "hello" });
    expect(textOf(bad)).toMatch(/Invalid arguments for get_changes: since: is not a cursor/);
    const inbox = await callOk(mcp, "get_changes", { folder: "INBOX" });
    expect(textOf(await call(mcp, "get_changes", { folder, since: inbox.cursor }))).toMatch(/since: is a cursor of the folder "INBOX"/);
  });
});

describe("without QRESYNC (the same Dovecot, capabilities hidden from our client)", () => {
  for (const hidden of [["QRESYNC"], ["QRESYNC", "CONDSTORE"]]) {
    test(`hiding ${hidden.join(" and ")}: arrivals and removals still exact${hidden.length === 1 ? ", flags too" : ""}`, async () => {
      const { folder, uids } = await seeded(3);
      const client = await connectImap(testAccount(h.dovecot.users.alice, h.dovecot), undefined, false);
      try {
        for (const cap of hidden) client.capabilities.delete(cap);
        const first = await getChanges(client, folder, null);
        await change(folder, uids[0]!, uids[1]!, `${folder} new`);
        const res = await getChanges(client, folder, first.cursor);
        expect(res.mode).toBe(hidden.length === 1 ? "condstore" : "plain");
        expect(res.added.map((e) => e.subject)).toEqual([`${folder} new`]);
        expect(res.vanished).toEqual([uids[1]!]);
        expect(res.flags_changed.map((f) => f.uid)).toEqual(hidden.length === 1 ? [uids[0]!] : []);
        const quiet = await getChanges(client, folder, res.cursor);
        expect([quiet.added.length, quiet.flags_changed.length, quiet.vanished.length, quiet.full_resync]).toEqual([0, 0, 0, false]);
      } finally {
        await client.logout();
      }
    });
  }
});

describe("a cursor is the caller's to send", () => {
  test("one naming every UID there could be is answered from ranges: the vanished list bounded, the UIDs still there kept out", async () => {
    const { folder, uids } = await seeded(2);
    const client = await connectImap(testAccount(h.dovecot.users.alice, h.dovecot), undefined, false);
    try {
      for (const cap of ["QRESYNC", "CONDSTORE"]) client.capabilities.delete(cap);
      const first = decodeChangesCursor(SEAL, (await getChanges(client, folder, null)).cursor);
      // Before: one number per UID of "1:4294967294", a 32 GB array; the process ran out of memory.
      const forged = encodeChangesCursor(SEAL, { ...first, uidNext: 4_294_967_295, count: null, set: "1:4294967294" });
      const res = await getChanges(client, folder, forged);
      const top = Math.max(...uids); // a new folder: its messages are uids 1..top
      expect(uids.sort((a, b) => a - b)).toEqual([1, 2]);
      expect(res.vanished).toHaveLength(100_000);
      expect([res.vanished[0], res.vanished.at(-1)]).toEqual([top + 1, top + 100_000]);
      expect(res.added).toEqual([]);
      expect(res.full_resync).toBe(false);
    } finally {
      await client.logout();
    }
  });
});

describe("the other tools once QRESYNC is on for the connection", () => {
  test("get_recent_emails still sees another client's expunge (reported as VANISHED) and arrival", async () => {
    const { folder, uids } = await seeded(4);
    await callOk(mcp, "get_changes", { folder }); // QRESYNC on, the folder selected
    await callOk(mcp, "get_recent_emails", { folder, limit: 2 });
    await change(folder, uids[0]!, uids[3]!, `${folder} late`);
    const page = await callOk(mcp, "get_recent_emails", { folder, limit: 10 });
    expect(page.emails.map((e: { subject: string }) => e.subject)).toEqual([`${folder} late`, `${folder} #2`, `${folder} #1`, `${folder} #0`]);
    const lock = await other.getMailboxLock(folder); // an expunge alone: no EXISTS follows the VANISHED
    try { await other.messageDelete(String(uids[2]), { uid: true }); } finally { lock.release(); }
    const top = await callOk(mcp, "get_recent_emails", { folder, limit: 10 });
    expect(top.emails.map((e: { subject: string }) => e.subject)).toEqual([`${folder} late`, `${folder} #1`, `${folder} #0`]);
  });
});
