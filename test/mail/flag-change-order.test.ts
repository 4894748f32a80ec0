// Where another client's flag change is reported decides what a read does with it (docs/freshness.md
// "Others' flag changes"). Dovecot reports it after an answer that already shows it; a server may
// also answer from its view before the change and report the change after, which only a scripted
// server (test/support/fake-imap.ts) does on cue. Real Dovecot: test/mail/others-flags.test.ts.
import { afterEach, expect, test } from "bun:test";
import type { FetchMessageObject, ImapFlow } from "imapflow";
import { createImapClient, tracking } from "../../src/mail/imap/client.ts";
import { fetchOwn, withMailbox, type FlagScope } from "../../src/mail/imap/mailbox.ts";
import { startFakeImap, type FakeImap, type Script } from "../support/fake-imap.ts";

let fake: FakeImap | undefined;
let client: ImapFlow | undefined;
afterEach(async () => {
  await client?.logout().catch(() => {});
  await fake?.stop();
});

/** Our client on a fake whose one scripted flag change is `change`, INBOX selected (by a call that reads nothing). */
async function connect(change: Script["flagChange"]): Promise<ImapFlow> {
  fake = await startFakeImap(() => ({ flagChange: change }));
  client = await createImapClient({ host: fake.host, port: fake.port, secure: false, logger: false, auth: { user: "a", pass: "b" } }, { probeAfterLogin: false });
  await client.connect();
  await withMailbox(client, "INBOX", async () => null, { readOnly: true, freshness: "verify" });
  return client;
}

/** A verify read of `set`'s flags, and `then` after it within the same call; how many times it ran. */
async function read(c: ImapFlow, set: string, scope: FlagScope, then?: () => Promise<unknown>) {
  let runs = 0;
  const msgs = await withMailbox(c, "INBOX", async () => {
    runs++;
    const got = await fetchOwn(c, set, { uid: true, flags: true }, true);
    await then?.();
    return got;
  }, { readOnly: true, freshness: "verify", flagChanges: scope });
  const flags = (uid: number) => [...(msgs.find((m: FetchMessageObject) => m.uid === uid)?.flags ?? [])].sort();
  return { runs, flags };
}

test("a change reported after the answer it names is given to that answer: current flags, one FETCH", async () => {
  const c = await connect({ after: "FETCH", seq: 2, flags: "\\Seen \\Flagged" });
  const fetchesBefore = fake!.received.FETCH ?? 0;
  const r = await read(c, "1:3", "shown");
  expect(r.flags(2)).toEqual(["\\Flagged", "\\Seen"]);
  expect(r.flags(1)).toEqual(["\\Seen"]);
  expect(r.runs).toBe(1);
  expect((fake!.received.FETCH ?? 0) - fetchesBefore).toBe(1);
  expect(tracking(c)).toMatchObject({ flagChanges: 1, shownFlagChanges: 0, changes: 0 });
});

test("a change to a message fetched earlier in the call, reported by a later command: the call runs again", async () => {
  const c = await connect({ after: "NOOP", seq: 2, flags: "\\Flagged" });
  const r = await read(c, "1:3", "shown", () => c.noop());
  expect(r.runs).toBe(2);
  expect(r.flags(2)).toEqual(["\\Flagged"]);
});

test("a change to a message the call did not fetch: no second run, unless the call's answer hangs on flags", async () => {
  const shown = await read(await connect({ after: "NOOP", seq: 2, flags: "\\Flagged" }), "1", "shown", () => client!.noop());
  expect(shown.runs).toBe(1);
  await client!.logout();
  await fake!.stop();
  const any = await read(await connect({ after: "NOOP", seq: 2, flags: "\\Flagged" }), "1", "any", () => client!.noop());
  expect(any.runs).toBe(2);
});
