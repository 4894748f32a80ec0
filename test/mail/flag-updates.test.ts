// What counts as another client's flag change (src/mail/imap/flag-updates.ts): lines a server sends,
// parsed by imapflow's own parser and formatter, as the client sees them.
import { expect, test } from "bun:test";
import type { FetchMessageObject } from "imapflow";
import parser from "imapflow/lib/handler/imap-parser.js";
import { formatMessageResponse } from "imapflow/lib/tools.js";
import { flagChangeOf, isFlagOnlyAnswer, noteFlagChange, noteShown, type FlagCounters } from "../../src/mail/imap/flag-updates.ts";

type Parsed = Parameters<typeof formatMessageResponse>[0];
const parse = (line: string) => parser(Buffer.from(line)) as Promise<Parsed>;
const format = async (line: string) => (await formatMessageResponse(await parse(line), { path: "INBOX", uidValidity: 1n } as never)) as FetchMessageObject;

test("a FETCH of flags alone is a flag change, with the UID when the server gives one (QRESYNC, Gmail)", async () => {
  expect(flagChangeOf(await parse("* 7 FETCH (FLAGS (\\Seen))"))).toEqual({ seq: 7, uid: undefined });
  expect(flagChangeOf(await parse("* 7 FETCH (UID 42 MODSEQ (1234) FLAGS (\\Seen \\Flagged))"))).toEqual({ seq: 7, uid: 42 });
  expect(flagChangeOf(await parse("* 7 FETCH (X-GM-LABELS (\\Important) UID 42)"))).toEqual({ seq: 7, uid: 42 });
  expect(isFlagOnlyAnswer(await format("* 7 FETCH (FLAGS (\\Seen))"))).toBe(true);
  expect(isFlagOnlyAnswer(await format("* 7 FETCH (UID 42 MODSEQ (1234) FLAGS (\\Seen))"))).toBe(true);
});

test("anything more, or less, is a change to the folder: the call runs again as before", async () => {
  for (const line of [
    "* 7 FETCH (UID 42)", // no flags
    "* 7 FETCH (FLAGS (\\Seen) RFC822.SIZE 100)",
    "* 7 FETCH (FLAGS (\\Seen) BODY[] {2}\r\nhi)",
    "* 7 FETCH (FLAGS (\\Seen) EMAILID (M1))",
    "* 0 FETCH (FLAGS (\\Seen))", // no message has sequence number 0
  ]) {
    expect(flagChangeOf(await parse(line))).toBeNull();
    expect(isFlagOnlyAnswer(await format(line))).toBe(false);
  }
  expect(flagChangeOf({ command: "7", attributes: [] })).toBeNull();
  expect(flagChangeOf({ command: "7", attributes: [{ type: "ATOM", value: "FETCH" }, [{ type: "ATOM", value: "FLAGS" }]] })).toBeNull();
});

test("a flag change counts as shown only while a call records what it fetched, and only for those messages", async () => {
  const t: FlagCounters = { flagChanges: 0, shownFlagChanges: 0 };
  noteFlagChange(t, 3, undefined);
  expect(t).toEqual({ flagChanges: 1, shownFlagChanges: 0 });
  t.shown = { seqs: new Set(), uids: new Set() };
  noteShown(t, await format("* 3 FETCH (UID 30 FLAGS ())"));
  noteFlagChange(t, 4, 40); // another message
  expect(t.shownFlagChanges).toBe(0);
  noteFlagChange(t, 3, undefined); // by sequence number
  noteFlagChange(t, 9, 30); // by UID
  expect(t).toMatchObject({ flagChanges: 4, shownFlagChanges: 2 });
});
