// Read-after-others'-writes (docs/freshness.md): a second, ordinary IMAP client changes the mailbox
// between and during MCP calls, and every tool shows the mailbox as it is when the call starts.
// The pooled connection keeps the folder selected between calls, which is the case that used to
// show a stale view. Folders "Others*" are this file's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { getHarness, type Harness } from "../support/harness.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import * as fx from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

const FOLDER = "Others";
let h: Harness;
let srv: TestServer;
let token: string;
let client: Client;
let other: ImapFlow; // the person's phone, a filter, another mail program

type Summary = { uid: number; subject: string; seen: boolean; flagged: boolean };
const recent = async (limit = 10, folder = FOLDER) =>
  (await callOk<{ emails: Summary[] }>(client, "get_recent_emails", { folder, limit })).emails;
const subjects = (list: Summary[]) => list.map((e) => e.subject);
const deliver = (subject: string, folder = FOLDER) => h.dovecot.deliver("alice", fx.plainText({ subject }), folder);
const uidOf = async (subject: string, folder = FOLDER) => (await findBySubject(other, folder, subject))[0]!.uid;

/**
 * Runs fn with `folder` selected on the other client (its own lock, released in finally). NOOP
 * first: imapflow's lock on an already selected folder sends nothing, so without it this client
 * too would act on its stale view (the very trap the server avoids).
 */
async function onOther<T>(folder: string, fn: () => Promise<T>): Promise<T> {
  const lock = await other.getMailboxLock(folder);
  try {
    await other.noop();
    return await fn();
  } finally {
    lock.release();
  }
}

beforeAll(async () => {
  h = await getHarness();
  other = await loginImap(h.dovecot, h.dovecot.users.alice);
  for (const f of [FOLDER, `${FOLDER}Dest`]) await other.mailboxCreate(f);
  for (let i = 1; i <= 6; i++) await deliver(`start ${i}`);
  srv = await startTestServer();
  token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot));
  client = await connectClient(srv.mcpUrl, token);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
  await other?.logout().catch(() => {});
});

describe("changes made by another client between calls", () => {
  test("a delivered message shows in get_recent_emails, search_emails and get_email", async () => {
    await recent(); // the folder is now selected on the pooled connection
    await deliver("arrived late");
    expect(subjects(await recent(3))[0]).toBe("arrived late");
    const found = await callOk(client, "search_emails", { folder: FOLDER, subject: "arrived late" });
    expect(found.total).toBe(1);
    await deliver("arrived later");
    const uid = await uidOf("arrived later");
    const email = await callOk(client, "get_email", { folder: FOLDER, uid });
    expect(email.subject).toBe("arrived later");
  });

  test("an expunged message disappears; pages never exceed limit nor lose their uids", async () => {
    const before = await recent(5);
    const gone = before[1]!;
    await onOther(FOLDER, () => other.messageDelete(String(gone.uid), { uid: true }));
    const after = await recent(5);
    expect(after.length).toBe(5);
    expect(after.every((e) => Number.isInteger(e.uid))).toBe(true);
    expect(after.map((e) => e.uid)).not.toContain(gone.uid);
    const res = await call(client, "get_email", { folder: FOLDER, uid: gone.uid });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain(`No message with uid ${gone.uid}`);
  });

  test("flags set and cleared by another client are what the summaries say", async () => {
    const [top] = await recent(1);
    await onOther(FOLDER, () => other.messageFlagsAdd(String(top!.uid), ["\\Seen", "\\Flagged"], { uid: true }));
    expect((await recent(1))[0]).toMatchObject({ uid: top!.uid, seen: true, flagged: true });
    const flagged = await callOk(client, "search_emails", { folder: FOLDER, flagged: true });
    expect(flagged.emails.map((e: Summary) => e.uid)).toContain(top!.uid);
    await onOther(FOLDER, () => other.messageFlagsRemove(String(top!.uid), ["\\Seen", "\\Flagged"], { uid: true }));
    expect((await recent(1))[0]).toMatchObject({ uid: top!.uid, seen: false, flagged: false });
    const email = await callOk(client, "get_email", { folder: FOLDER, uid: top!.uid });
    expect(email).toMatchObject({ seen: false, flagged: false });
  });

  test("moved in and moved out by another client", async () => {
    await deliver("to be moved in", `${FOLDER}Dest`);
    await recent(3); // keep FOLDER selected
    const inUid = await uidOf("to be moved in", `${FOLDER}Dest`);
    await onOther(`${FOLDER}Dest`, () => other.messageMove(String(inUid), FOLDER, { uid: true }));
    expect(subjects(await recent(3))).toContain("to be moved in");
    const outUid = await uidOf("to be moved in");
    await onOther(FOLDER, () => other.messageMove(String(outUid), `${FOLDER}Dest`, { uid: true }));
    expect(subjects(await recent(10))).not.toContain("to be moved in");
    const searched = await callOk(client, "search_emails", { folder: FOLDER, subject: "to be moved in" });
    expect(searched.total).toBe(0);
  });

  test("move_email and mark_as_read on a uid another client just took away say so truthfully", async () => {
    await deliver("taken away");
    const [top] = await recent(1);
    expect(top!.subject).toBe("taken away");
    await onOther(FOLDER, () => other.messageMove(String(top!.uid), `${FOLDER}Dest`, { uid: true }));
    for (const [tool, args] of [["move_email", { destination: `${FOLDER}Dest` }], ["mark_as_read", {}]] as const) {
      const res = await call(client, tool, { folder: FOLDER, uids: [top!.uid], ...args });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain(`uid ${top!.uid} is no longer in "${FOLDER}"`);
    }
  });

  test("a folder kept selected read-write by writes sees others' changes too", async () => {
    const [top] = await recent(1);
    await callOk(client, "mark_as_read", { folder: FOLDER, uids: [top!.uid] }); // SELECT, read-write
    await deliver("after a write");
    const uid = await uidOf("after a write");
    expect(await callOk(client, "mark_as_read", { folder: FOLDER, uids: [uid] })).toEqual({ folder: FOLDER, updated: 1 });
    const moved = await callOk(client, "move_email", { folder: FOLDER, uids: [uid], destination: `${FOLDER}Dest` });
    expect(moved.moved[0].uid).toBe(uid);
  });

  test("folders created, renamed and deleted by another client", async () => {
    const paths = async () => (await callOk(client, "list_mailboxes")).mailboxes.map((m: { path: string }) => m.path);
    await other.mailboxCreate(`${FOLDER}New`);
    await deliver("in a new folder", `${FOLDER}New`);
    expect(await paths()).toContain(`${FOLDER}New`);
    expect(subjects(await recent(1, `${FOLDER}New`))).toEqual(["in a new folder"]);
    await other.mailboxRename(`${FOLDER}New`, `${FOLDER}Renamed`);
    expect(await paths()).toContain(`${FOLDER}Renamed`);
    const old = await call(client, "get_recent_emails", { folder: `${FOLDER}New` });
    expect(old.isError).toBe(true);
    expect(textOf(old)).toContain(`${FOLDER}Renamed`); // the error lists what exists now
    expect(subjects(await recent(1, `${FOLDER}Renamed`))).toEqual(["in a new folder"]);
    await other.mailboxDelete(`${FOLDER}Renamed`);
    expect(await paths()).not.toContain(`${FOLDER}Renamed`);
    expect((await call(client, "get_recent_emails", { folder: `${FOLDER}Renamed` })).isError).toBe(true);
  });
});

describe("another client busy during the calls", () => {
  test("several sessions of one token, flags flipping and mail arriving: 0 failed calls", async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => connectClient(srv.mcpUrl, token)));
    const uids = (await recent(10)).map((e) => e.uid);
    let stop = false;
    let changesSoFar = 0;
    const churn = (async () => {
      let i = 0;
      while (!stop) {
        await onOther(FOLDER, async () => {
          const uid = String(uids[i % uids.length]);
          if (i % 2) await other.messageFlagsAdd(uid, ["\\Seen"], { uid: true });
          else await other.messageFlagsRemove(uid, ["\\Seen"], { uid: true });
        });
        if (i % 5 === 0) await deliver(`busy ${i}`);
        changesSoFar = ++i;
      }
      return i;
    })();
    const failures: string[] = [];
    let calls = 0;
    // Each session makes at least 25 calls, and all keep calling until the other client has made
    // 30 changes, so the churn really overlaps the calls however fast either side runs.
    const worker = async (c: Client, n: number) => {
      for (let k = 0; k < 25 || changesSoFar < 30; k++) {
        const [name, args] = [
          ["get_recent_emails", { folder: FOLDER, limit: 5 }],
          ["search_emails", { folder: FOLDER, subject: "busy", limit: 5 }],
          ["get_email", { folder: FOLDER, uid: uids[(k + n) % uids.length] }],
          ["mark_as_read", { folder: FOLDER, uids: [uids[(k + n) % uids.length]], read: k % 2 === 0 }],
        ][(k + n) % 4] as [string, Record<string, unknown>];
        try {
          const res = await call(c, name, args); // the SDK checks structuredContent against outputSchema
          calls++;
          if (res.isError) failures.push(`${name}: ${textOf(res)}`);
          const emails = (res.structuredContent as { emails?: Summary[] } | undefined)?.emails;
          if (emails && (emails.length > 5 || emails.some((e) => !Number.isInteger(e.uid)))) failures.push(`${name}: bad page`);
        } catch (err) {
          failures.push(`${name}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(sessions.map((c, n) => worker(c, n)));
    stop = true;
    const changes = await churn;
    await Promise.all(sessions.map((c) => c.close()));
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(75);
    expect(changes).toBeGreaterThanOrEqual(30); // the other client really was busy meanwhile
  }, 60_000);
});
