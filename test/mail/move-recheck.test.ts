// move_email on a folder the pooled connection already has selected (docs/freshness.md "recheck"):
// one UID MOVE, no NOOP first; when another client's change left the view stale and the MOVE left
// something undone, a NOOP and the rest moved once more. Real Dovecot, a second real client making
// the changes, commands counted. Folders "MoveRecheck*" (bob) are this file's own.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { MailError } from "../../src/mail/errors.ts";
import { moveEmails } from "../../src/mail/write/move.ts";
import { pooledClient, recordingClient, type RecordingClient } from "../support/command-log.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";

const FROM = "MoveRecheck";
const TO = "MoveRecheckTo";
let h: Harness;
let client: ImapFlow;
let other: ImapFlow;
let log: RecordingClient;

/** What fn returned, and the commands it sent. */
async function commands<T>(fn: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  let result: T | undefined;
  const sent = await log.commands(async () => { result = await fn(); });
  return { result: result as T, sent };
}

const move = (uids: number[]) => moveEmails(client, FROM, uids, TO);

/** UIDs in `folder` now, as the other client sees them (after a NOOP: its view too may be old). */
async function uidsIn(folder: string): Promise<number[]> {
  const lock = await other.getMailboxLock(folder);
  try {
    await other.noop();
    return ((await other.search({ all: true }, { uid: true })) || []).sort((a, b) => a - b);
  } finally {
    lock.release();
  }
}

/** The other client delivers a message to FROM and returns its UID (as the caller may learn it elsewhere). */
async function otherDelivers(subject: string): Promise<number> {
  const res = await other.append(FROM, Buffer.from(fx.plainText({ subject })));
  return (res as { uid: number }).uid;
}

beforeAll(async () => {
  h = await getHarness();
  await h.dovecot.seedBulk("bob", FROM, 12, (i) => fx.plainText({ subject: `Move ${i + 1}` }));
  const account = testAccount(h.dovecot.users.bob, h.dovecot);
  log = await recordingClient(account);
  client = log.client;
  other = await pooledClient(account);
  await other.mailboxCreate(TO);
}, 30_000);
afterAll(async () => {
  await client?.logout();
  await other?.logout();
});

test("the folder just selected: SELECT and UID MOVE, and a UID that is not there is missing at once", async () => {
  const { result, sent } = await commands(() => move([1, 9_999]));
  expect(sent).toEqual([`SELECT ${FROM}`, "UID MOVE"]);
  expect(result.moved.map((m) => m.uid)).toEqual([1]);
  expect(result.missing).toEqual([9_999]);
});

test("the folder already selected, nothing changed: UID MOVE alone, no NOOP", async () => {
  const { result, sent } = await commands(() => move([2, 3]));
  expect(sent).toEqual(["UID MOVE"]);
  expect(result.moved.map((m) => m.uid)).toEqual([2, 3]);
  expect(result.moved.every((m) => typeof m.new_uid === "number")).toBe(true);
  expect(await uidsIn(FROM)).not.toContain(2);
});

test("one of them expunged by another client meanwhile: the rest is moved after a NOOP, that one missing", async () => {
  await other.messageDelete("5", { uid: true }); // expunged on the other connection; our view still holds it
  const { result, sent } = await commands(() => move([4, 5]));
  // Dovecot refuses the whole MOVE on the old view (NO [EXPUNGEISSUED], RFC 5530) and moves nothing.
  expect(sent).toEqual(["UID MOVE", "NOOP", "UID MOVE"]);
  expect(result).toEqual({ from: FROM, to: TO, moved: [{ uid: 4, new_uid: expect.any(Number) }], missing: [5] });
  expect(await uidsIn(FROM)).not.toContain(4);
});

test("one of them delivered by another client meanwhile: both are moved", async () => {
  const fresh = await otherDelivers("delivered meanwhile");
  const { result, sent } = await commands(() => move([6, fresh]));
  // The old view does not see the new UID: 6 moves, then the NOOP brings the new one into view.
  expect(sent).toEqual(["UID MOVE", "NOOP", "UID MOVE"]);
  expect(result.moved.map((m) => m.uid)).toEqual([6, fresh]);
  expect(result.missing).toEqual([]);
  expect(await uidsIn(FROM)).not.toContain(fresh);
});

test("a UID that never existed, on a view not known current: asked once more, then missing", async () => {
  const { result, sent } = await commands(() => move([7, 8_888]));
  expect(sent).toEqual(["UID MOVE", "NOOP", "UID MOVE"]);
  expect(result.moved.map((m) => m.uid)).toEqual([7]);
  expect(result.missing).toEqual([8_888]);
});

test("the rest refused after some moved: an error that says which moved where, and which are still there", async () => {
  const fresh = await otherDelivers("refused later");
  const real = client.messageMove.bind(client);
  let calls = 0;
  client.messageMove = (async (...args: Parameters<ImapFlow["messageMove"]>) => (++calls === 2 ? false : real(...args))) as ImapFlow["messageMove"];
  try {
    const err = await move([9, fresh]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect((err as Error).message).toMatch(new RegExp(`\\(UID 9 → \\d+\\), then the server refused to move the rest \\(UID ${fresh}: .*still in ${FROM}`));
  } finally {
    delete (client as { messageMove?: unknown }).messageMove;
  }
  expect(client.messageMove).toBe(Object.getPrototypeOf(client).messageMove);
  expect(await uidsIn(FROM)).toContain(fresh);
  expect(await uidsIn(FROM)).not.toContain(9);
});
