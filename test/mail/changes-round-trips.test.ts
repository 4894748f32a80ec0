// get_changes with nothing changed stays within two round trips (issue 41's bench bound at 20 ms
// RTT), now that a folder selected before the call is selected again to see a replaced folder; with
// QRESYNC the EXAMINE alone answers when its HIGHESTMODSEQ and UIDNEXT are the cursor's:
// our pooled client on the harness Dovecot (QRESYNC), every command it sends counted, as imapflow
// sends one command at a time (each is a round trip).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { getChanges } from "../../src/mail/read/changes.ts";
import { decodeChangesCursor } from "../../src/mail/read/changes-cursor.ts";
import { recordingClient, type RecordingClient } from "../support/command-log.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";

const SEAL = { key: new Uint8Array(32), mailbox: "test" };
const FOLDER = `ChangesRT-${randomBytes(4).toString("hex")}`;
let h: Harness;
let log: RecordingClient;

beforeAll(async () => {
  h = await getHarness();
  log = await recordingClient(testAccount(h.dovecot.users.bob, h.dovecot));
  await log.client.mailboxCreate(FOLDER);
  for (let i = 0; i < 3; i++) await h.dovecot.deliver("bob", plainText({ subject: `rt #${i}` }), FOLDER);
}, 30_000);
afterAll(async () => {
  await log.client.logout();
});

test("nothing changed: the EXAMINE alone (QRESYNC), at most 2 commands with the folder selected before the call or not", async () => {
  let cursor = (await getChanges(log.client, FOLDER, null, SEAL)).cursor;
  const quiet = async () => {
    const res = await getChanges(log.client, FOLDER, decodeChangesCursor(SEAL, cursor), SEAL);
    expect([res.added.length, res.vanished.length, res.flags_changed.length, res.full_resync]).toEqual([0, 0, 0, false]);
    cursor = res.cursor;
  };
  const selected = await log.commands(quiet); // FOLDER is selected from the call before
  expect(selected).toEqual(["EXAMINE " + FOLDER]);
  await log.client.mailboxOpen("INBOX", { readOnly: true });
  const elsewhere = await log.commands(quiet);
  expect(elsewhere.length).toBeLessThanOrEqual(2);
});
