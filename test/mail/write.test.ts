// Drafts and sending with Sent copies, against the harness Dovecot + SMTP (mark/move: write-folders.test.ts).
// Every test uses its own folders or unique subjects: the servers are shared by the whole run.
import { testReaders } from "../support/content.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { InputError } from "../../src/mail/errors.ts";
import { assemble } from "../../src/mail/write/assemble.ts";
import { prepare, type OutgoingArgs, type OutgoingDeps } from "../../src/mail/write/outgoing.ts";
import { deliver } from "../../src/sending/deliver.ts";
import { saveDraft } from "../../src/mail/write/draft/save.ts";
import { SmtpPool } from "../../src/mail/smtp/pool.ts";
import { type MailAccount } from "../../src/mail/account.ts";
import { MailError } from "../../src/mail/errors.ts";
import { findBySubject, loginImap, type FoundMessage } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import type { MailUser } from "../support/dovecot.ts";
import { plainText } from "../support/mail-fixtures.ts";

let h: Harness;
let aliceImap: ImapFlow;
let bobImap: ImapFlow;
let deps: OutgoingDeps;
const smtp = new SmtpPool();
const tag = () => crypto.randomUUID().slice(0, 8);

function account(u: MailUser, overrides: Partial<MailAccount> = {}): MailAccount {
  const endpoint = (port: number) => ({ host: "localhost", port, security: "none" as const });
  return { provider: "custom", email: u.email, username: u.user, auth: { kind: "password", password: u.pass }, imap: endpoint(h.dovecot.port), smtp: endpoint(h.smtp.port), providerSavesSent: false, ...overrides };
}

beforeAll(async () => {
  h = await getHarness();
  [aliceImap, bobImap] = await Promise.all([loginImap(h.dovecot, h.dovecot.users.alice), loginImap(h.dovecot, h.dovecot.users.bob)]);
  const alice = account(h.dovecot.users.alice);
  deps = { account: alice, withImap: (fn) => fn(aliceImap), content: testReaders() };
}, 20_000);
afterEach(() => {
  h.smtp.rejectRecipients.clear();
  h.smtp.failNext = undefined;
});
afterAll(async () => {
  smtp.closeAll();
  await Promise.all([aliceImap.logout(), bobImap.logout()]);
});

/**
 * send_email's mail work below the send gate: compose, then the SMTP hand-off (src/sending/deliver.ts)
 * with its Sent copy and flags. The gate itself (policy, ledger, caps) is test/mcp/send-gate/.
 */
async function sendEmail(d: OutgoingDeps, args: OutgoingArgs) {
  const p = prepare(args, "send");
  const a = await assemble(d, p);
  try {
    const source = a.original && { folder: a.original.folder, uid: a.original.uid };
    return await deliver((m) => smtp.send("write-test", d.account, m), d, a.composed, { answered: p.reply && source ? source : undefined, forwarded: p.forward && source ? source : undefined });
  } finally {
    a.release();
  }
}

/** Delivers `count` messages to a new folder of alice's and returns the folder and their UIDs. */
async function seedFolder(prefix: string, count: number): Promise<{ folder: string; uids: number[]; subject: string }> {
  const folder = `${prefix}-${tag()}`;
  const subject = `seed ${folder}`;
  await aliceImap.mailboxCreate(folder);
  for (let i = 0; i < count; i++) await h.dovecot.deliver("alice", plainText({ subject: `${subject} #${i}`, messageId: `<${folder}-${i}@example.test>` }), folder);
  const uids = (await findBySubject(aliceImap, folder, subject)).map((m) => m.uid).sort((a, b) => a - b);
  return { folder, uids, subject };
}

async function thrown(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe("draft_email", () => {
  test("a draft lands in \\Drafts with \\Draft, our Message-ID and the Bcc kept", async () => {
    const subject = `draft ${tag()}`;
    // Regression: after an EXAMINE (what the read tools leave behind) imapflow drops APPEND flags (see src/mail/write/append.ts).
    (await aliceImap.getMailboxLock("INBOX", { readOnly: true })).release();
    const res = await saveDraft(deps, { to: ["Bob <bob@example.test>"], cc: "carol@example.net", bcc: "dave@example.org", subject, text: "Draft body" });
    expect(res.folder).toBe("Drafts");
    const [m] = await findBySubject(aliceImap, "Drafts", subject);
    expect(m?.uid).toBe(res.uid!);
    expect(m!.flags.has("\\Draft") && m!.flags.has("\\Seen")).toBe(true);
    const parsed = await simpleParser(m!.raw);
    expect(parsed.messageId).toBe(res.message_id);
    expect(parsed.from?.text).toBe("alice@example.test");
    expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toBe(`"Bob" <bob@example.test>`);
    expect(JSON.stringify(parsed.bcc)).toContain("dave@example.org");
    expect(parsed.text?.trim()).toBe("Draft body");
  });

  test("a reply draft threads under its parent (In-Reply-To, References, Re:)", async () => {
    const folder = `W5-reply-${tag()}`;
    await aliceImap.mailboxCreate(folder);
    const parentId = `<parent-${folder}@example.test>`;
    await h.dovecot.deliver("alice", plainText({ subject: `Budget ${folder}`, messageId: parentId, inReplyTo: "<root@example.test>", references: ["<root@example.test>", "<mid@example.test>"] }), folder);
    const [parent] = await findBySubject(aliceImap, folder, "Budget");
    const res = await saveDraft(deps, { to: "carol@example.net", text: "Sounds good", reply_to_uid: parent!.uid, reply_folder: folder });
    const [draft] = await findBySubject(aliceImap, "Drafts", `Re: Budget ${folder}`);
    const parsed = await simpleParser(draft!.raw);
    expect(parsed.messageId).toBe(res.message_id);
    expect(parsed.subject).toBe(`Re: Budget ${folder}`);
    expect(parsed.inReplyTo).toBe(parentId);
    expect(parsed.references).toEqual(["<root@example.test>", "<mid@example.test>", parentId]);
  });

  test("bad arguments and a missing parent change nothing", async () => {
    const subject = `bad draft ${tag()}`;
    expect(await thrown(saveDraft(deps, { to: [], subject }))).toBeInstanceOf(InputError);
    expect(await thrown(saveDraft(deps, { to: "not an address", subject }))).toBeInstanceOf(InputError);
    expect(await thrown(saveDraft(deps, { to: "bob@example.test" }))).toBeInstanceOf(InputError); // no subject, not a reply
    const missing = await thrown(saveDraft(deps, { to: "bob@example.test", subject, reply_to_uid: 999_999 }));
    expect(missing).toBeInstanceOf(MailError);
    expect(missing.message).toContain("999999");
    const noFolder = await thrown(saveDraft(deps, { to: "bob@example.test", subject, reply_to_uid: 1, reply_folder: "No-Such-Folder" }));
    expect(noFolder.message).toMatch(/does not exist.*INBOX/);
    expect(await findBySubject(aliceImap, "Drafts", subject)).toEqual([]);
  });
});

describe("send_email", () => {
  test("delivers to bob with the attachment intact, envelope right, a \\Seen copy in alice's Sent", async () => {
    const subject = `send ${tag()}`;
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));
    const before = h.smtp.messages.length;
    const res = await sendEmail(deps, {
      to: "bob@example.test", bcc: ["carol@example.net"], subject, text: "See attached",
      attachments: [{ filename: "data.bin", content_base64: bytes.toString("base64"), content_type: "application/octet-stream" }],
    });
    expect(res).toMatchObject({ accepted: ["bob@example.test", "carol@example.net"], rejected: [], saved_to: "Sent", warnings: [] });
    expect(h.smtp.messages.length).toBe(before + 1);
    const env = h.smtp.messages.at(-1)!;
    expect(env.from).toBe("alice@example.test");
    expect(env.to).toEqual(["bob@example.test", "carol@example.net"]);
    expect(env.raw.toString()).not.toContain("carol@example.net"); // Bcc stays hidden

    const [inbox] = await findBySubject(bobImap, "INBOX", subject);
    const got = await simpleParser(inbox!.raw);
    expect(got.messageId).toBe(res.message_id);
    expect(Buffer.compare(got.attachments[0]!.content, bytes)).toBe(0);
    expect(got.attachments[0]!.filename).toBe("data.bin");

    const [sent] = await findBySubject(aliceImap, "Sent", subject);
    expect(sent!.flags.has("\\Seen")).toBe(true);
    const copy = await simpleParser(sent!.raw);
    expect(copy.messageId).toBe(res.message_id);
    expect(JSON.stringify(copy.bcc)).toContain("carol@example.net");
  });

  test("a reply is threaded and flags its parent \\Answered", async () => {
    const { folder, uids } = await seedFolder("W5-answer", 1);
    const res = await sendEmail(deps, { to: "bob@example.test", text: "Reply body", reply_to_uid: uids[0], reply_folder: folder });
    const got = await simpleParser((await findBySubject(bobImap, "INBOX", `Re: seed ${folder}`))[0]!.raw);
    expect(got.messageId).toBe(res.message_id);
    expect(got.inReplyTo).toBe(`<${folder}-0@example.test>`);
    const [parent] = await findBySubject(aliceImap, folder, `seed ${folder}`);
    expect(parent!.flags.has("\\Answered")).toBe(true);
  });

  test("an SMTP refusal leaves Sent untouched", async () => {
    const subject = `refused ${tag()}`;
    h.smtp.rejectRecipients.add("bob@example.test");
    const err = await thrown(sendEmail(deps, { to: "bob@example.test", subject, text: "x" }));
    expect(err).toBeInstanceOf(MailError);
    h.smtp.failNext = { code: 554, message: "5.7.1 Policy rejection", at: "data" };
    expect(await thrown(sendEmail(deps, { to: "carol@example.net", subject, text: "x" }))).toBeInstanceOf(MailError);
    expect(await findBySubject(aliceImap, "Sent", subject)).toEqual([]);
  });

  test("providerSavesSent: no copy from us, saved_to null", async () => {
    const subject = `gmail-like ${tag()}`;
    const res = await sendEmail({ ...deps, account: account(h.dovecot.users.alice, { providerSavesSent: true }) }, { to: "bob@example.test", subject, text: "x" });
    expect(res.saved_to).toBeNull();
    expect(await findBySubject(aliceImap, "Sent", subject)).toEqual([]);
    expect((await findBySubject(bobImap, "INBOX", subject)).length).toBe(1);
  });

  test("bad input is refused before anything is sent", async () => {
    const before = h.smtp.messages.length;
    const subject = `invalid ${tag()}`;
    const bad = [
      { to: "bob@example.test", subject, text: "x", attachments: [{ filename: "a", content_base64: "!!!!" }] },
      { to: "bob@example.test", cc: "bad@", subject, text: "x" },
      { to: "bob@example.test", subject }, // empty message
      { to: "bob@example.test", subject: "two\r\nlines", text: "x" },
    ];
    for (const args of bad) expect(await thrown(sendEmail(deps, args))).toBeInstanceOf(InputError);
    expect(h.smtp.messages.length).toBe(before);
    expect(await findBySubject(aliceImap, "Sent", subject)).toEqual([]);
  });
});
