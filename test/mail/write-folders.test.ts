// mark_as_read and move_email against the harness Dovecot, plus the special-use folder lookup.
// Every test uses its own folders: the server is shared by the whole run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { InputError } from "../../src/mail/errors.ts";
import { appendSent } from "../../src/mail/write/append.ts";
import { markRead } from "../../src/mail/write/flags.ts";
import { moveEmails } from "../../src/mail/write/move.ts";
import { MailError } from "../../src/mail/errors.ts";
import { findBySubject, loginImap, type FoundMessage } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { listingStub } from "../support/list-stub.ts";

let h: Harness;
let aliceImap: ImapFlow;
const tag = () => crypto.randomUUID().slice(0, 8);

beforeAll(async () => {
  h = await getHarness();
  aliceImap = await loginImap(h.dovecot, h.dovecot.users.alice);
}, 20_000);
afterAll(() => aliceImap.logout());


/** Delivers `count` messages to a new folder of alice's and returns the folder and their UIDs. */
async function seedFolder(prefix: string, count: number): Promise<{ folder: string; uids: number[] }> {
  const folder = `${prefix}-${tag()}`;
  await aliceImap.mailboxCreate(folder);
  for (let i = 0; i < count; i++) await h.dovecot.deliver("alice", plainText({ subject: `seed ${folder} #${i}`, messageId: `<${folder}-${i}@example.test>` }), folder);
  return { folder, uids: (await findBySubject(aliceImap, folder, `seed ${folder}`)).map((m) => m.uid).sort((a, b) => a - b) };
}

async function thrown(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe("mark_as_read", () => {
  test("flips \\Seen both ways and reports unknown UIDs", async () => {
    const { folder, uids } = await seedFolder("W5-mark", 3);
    const res = await markRead(aliceImap, folder, [uids[0]!, uids[1]!, 9999], true);
    expect(res).toEqual({ folder, updated: 2, missing: [9999] });
    const seen = async () => (await findBySubject(aliceImap, folder, "seed")).filter((m) => m.flags.has("\\Seen")).map((m) => m.uid).sort((a, b) => a - b);
    expect(await seen()).toEqual([uids[0]!, uids[1]!]);
    expect(await markRead(aliceImap, folder, [uids[0]!], false)).toEqual({ folder, updated: 1, missing: [] });
    expect(await seen()).toEqual([uids[1]!]);
  });

  test("unknown folder lists the folders; bad uids are refused", async () => {
    const err = await thrown(markRead(aliceImap, "W5-nope", [1]));
    expect(err).toBeInstanceOf(MailError);
    expect(err.message).toMatch(/does not exist.*Drafts/);
    expect(await thrown(markRead(aliceImap, "INBOX", [-1]))).toBeInstanceOf(InputError);
    expect(await thrown(markRead(aliceImap, "INBOX", Array.from({ length: 101 }, (_, i) => i + 1)))).toBeInstanceOf(InputError);
  });
});

describe("move_email", () => {
  test("moves with the new UIDs from COPYUID", async () => {
    const src = await seedFolder("W5-move-src", 3);
    const dst = `W5-move-dst-${tag()}`;
    await aliceImap.mailboxCreate(dst);
    const res = await moveEmails(aliceImap, src.folder, [src.uids[0]!, src.uids[2]!, 4242], dst);
    expect(res.from).toBe(src.folder);
    expect(res.to).toBe(dst);
    expect(res.missing).toEqual([4242]);
    expect(res.moved.map((m) => m.uid)).toEqual([src.uids[0]!, src.uids[2]!]);
    expect((await findBySubject(aliceImap, src.folder, "seed")).map((m) => m.uid)).toEqual([src.uids[1]!]);
    const landed = await findBySubject(aliceImap, dst, "seed");
    for (const { uid, new_uid } of res.moved) {
      const m = landed.find((l) => l.uid === new_uid);
      const i = src.uids.indexOf(uid);
      expect((await simpleParser(m!.raw)).messageId).toBe(`<${src.folder}-${i}@example.test>`);
    }
  });

  test("unknown destination lists folders; same folder is refused; nothing moves", async () => {
    const src = await seedFolder("W5-move-bad", 1);
    const err = await thrown(moveEmails(aliceImap, src.folder, src.uids, "Nowhere"));
    expect(err).toBeInstanceOf(MailError);
    expect(err.message).toMatch(/destination: folder "Nowhere" does not exist\. Existing folders: .*INBOX/);
    expect(await thrown(moveEmails(aliceImap, src.folder, src.uids, src.folder))).toBeInstanceOf(InputError);
    expect(await thrown(moveEmails(aliceImap, "W5-missing-src", [1], "INBOX"))).toBeInstanceOf(MailError);
    // A parent that exists only as a path segment (\Noselect / \NonExistent) cannot hold messages.
    const parent = `W5-parent-${tag()}`;
    await aliceImap.mailboxCreate(`${parent}/child`);
    const noselect = await thrown(moveEmails(aliceImap, src.folder, src.uids, parent));
    expect(noselect.message).toMatch(/cannot hold messages/);
    expect(await moveEmails(aliceImap, src.folder, [777_777], "INBOX")).toEqual({ from: src.folder, to: "INBOX", moved: [], missing: [777_777] });
    // No such uid AND no such destination: the destination is what gets reported.
    expect((await thrown(moveEmails(aliceImap, src.folder, [777_777], "Nowhere"))).message).toMatch(/destination: folder "Nowhere" does not exist/);
    expect((await findBySubject(aliceImap, src.folder, "seed")).map((m) => m.uid)).toEqual(src.uids);
  });
});

describe("special-use lookup", () => {
  test("a remembered Sent path that has gone away is looked up again, once", async () => {
    // A stand-in client: the first LIST says Sent is "Old Sent", later ones say "Sent"; "Old Sent" is gone.
    let sentPath = "Old Sent";
    const appended: string[] = [];
    const { client: fake } = listingStub(() => [{ path: sentPath, specialUse: "\\Sent" }], {
      getMailboxLock: async (path: string) => {
        if (path === "Old Sent" && sentPath !== "Old Sent") throw Object.assign(new Error("NONEXISTENT"), { mailboxMissing: true });
        return { path, release() {} };
      },
      append: async (path: string) => (appended.push(path), { destination: path, uid: appended.length }),
      mailbox: {},
    });
    expect(await appendSent(fake, Buffer.from("x"), "<a@x>")).toEqual({ folder: "Old Sent", uid: 1 });
    sentPath = "Sent"; // renamed behind our back
    expect(await appendSent(fake, Buffer.from("x"), "<b@x>")).toEqual({ folder: "Sent", uid: 2 });
    expect(appended).toEqual(["Old Sent", "Sent"]);
  });
});
