// Composing like a mail client through the SDK client, on the harness Dovecot + SMTP: reply-all
// recipients, the quote, forwards in both modes with byte-identical attachments, mailbox parts
// attached by reference, markdown bodies, and the 20 MB budget counting every kind of attachment.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { simpleParser, type ParsedMail } from "mailparser";
import { randomBytes } from "node:crypto";
import { attached, mixed, note } from "../support/attachment-mail.ts";
import { aliceHooks } from "../support/alice.ts";
import { findBySubject } from "../support/imap.ts";
import type { Harness } from "../support/harness.ts";
import { buildMessage, plainText } from "../support/mail-fixtures.ts";
import { call, callOk, textOf, type TestServer } from "../support/mcp-client.ts";

let h: Harness, srv: TestServer, mcp: Client, imap: ImapFlow, bob: ImapFlow, grantId: string;
aliceHooks((s) => ({ h, srv, mcp, imap, bob, grantId } = s));
const tag = () => randomBytes(4).toString("hex");

/** Puts `raw` in alice's `folder` (created) and returns its uid. */
async function seed(raw: string, subject: string, folder = `Compose-${tag()}`): Promise<{ folder: string; uid: number }> {
  await imap.mailboxCreate(folder);
  await h.dovecot.deliver("alice", raw, folder);
  return { folder, uid: (await findBySubject(imap, folder, subject))[0]!.uid };
}

const sentWith = (subject: string) => h.smtp.messages.find((m) => m.raw.toString("latin1").includes(subject))!;
const received = async (subject: string): Promise<ParsedMail> => simpleParser((await findBySubject(bob, "INBOX", subject))[0]!.raw);
/** The raw message `uid` in alice's `folder`, fetched as a mail client would. */
async function rawOf(folder: string, uid: number): Promise<Buffer> {
  const lock = await imap.getMailboxLock(folder);
  try {
    await imap.noop();
    const msg = await imap.fetchOne(String(uid), { source: true }, { uid: true });
    if (!msg || !msg.source) throw new Error(`no uid ${uid} in ${folder}`);
    return msg.source;
  } finally {
    lock.release();
  }
}
const draftOf = async (uid: number): Promise<ParsedMail> => simpleParser(await rawOf("Drafts", uid));
const addresses = (field: ParsedMail["to"]) => (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

describe("reply-all and quoting", () => {
  const original = (subject: string) => plainText({
    from: "Carol Example <carol@example.net>", subject, messageId: `<${subject.replace(/ /g, "-")}@example.net>`,
    to: ["alice@example.test", "Dave <dave@example.org>"], cc: ["erin@example.org", "ALICE@example.test", "dave@example.org"],
    headers: { "Reply-To": "Help Desk <help@example.net>" }, date: new Date("2026-11-21T14:00:00Z"),
  }, "Can we meet on Friday?\n> an older quote\n\nCarol\n");

  test("reply_all: To = Reply-To and the original To, Cc = its Cc, without alice and without repeats; quoted below", async () => {
    const subject = `reply all ${tag()}`;
    const { folder, uid } = await seed(original(subject), subject);
    const res = await call(mcp, "send_email", { reply_to_uid: uid, reply_folder: folder, reply_all: true, cc: "frank@example.org", text: "Friday works." });
    expect(res.isError).toBeFalsy();
    const wire = sentWith(`Re: ${subject}`);
    expect(wire.to).toEqual(["help@example.net", "dave@example.org", "frank@example.org", "erin@example.org"]);
    const mail = await simpleParser(wire.raw);
    expect(addresses(mail.to)).toEqual(["help@example.net", "dave@example.org"]);
    expect(addresses(mail.cc)).toEqual(["frank@example.org", "erin@example.org"]);
    expect(mail.inReplyTo).toBe(`<${subject.replace(/ /g, "-")}@example.net>`);
    expect(mail.text).toBe(
      "Friday works.\n\nOn Sat, 21 Nov 2026 at 14:00 UTC, Carol Example <carol@example.net> wrote:\n" +
      "> Can we meet on Friday?\n>> an older quote\n>\n> Carol\n",
    );
    // The subject and recipients came in part from Carol: fenced in the text block.
    expect(textOf(res)).toMatch(/<<<UNTRUSTED-CONTENT-[0-9a-f]{16}\nSubject: Re: reply all [0-9a-f]+\nTo: Help Desk <help@example.net>, Dave <dave@example.org>\nCc: frank@example.org, erin@example.org\n/);
    expect(textOf(res)).not.toMatch(/Accepted by the server for: /);
  });

  test("a plain reply goes to Reply-To only; quote: false leaves the original out; markdown quotes into a blockquote", async () => {
    const subject = `reply one ${tag()}`;
    const { folder, uid } = await seed(original(subject), subject);
    const plain = await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, text: "Yes.", quote: false });
    const bare = await draftOf(plain.uid);
    expect(addresses(bare.to)).toEqual(["help@example.net"]);
    expect(bare.cc).toBeUndefined();
    expect(bare.text).toBe("Yes.\n");
    const rich = await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, markdown: "**Yes**, see [the plan](https://plan.example/x)." });
    const both = await draftOf(rich.uid);
    expect(both.text).toContain("Yes, see the plan <https://plan.example/x>.\n\nOn Sat, 21 Nov 2026 at 14:00 UTC, Carol Example <carol@example.net> wrote:\n> Can we meet on Friday?");
    expect(both.html).toContain('<strong>Yes</strong>, see <a href="https://plan.example/x">the plan</a>.');
    expect(both.html).toMatch(/<blockquote type="cite"[^>]*>Can we meet on Friday\?<br>\n&#62; an older quote/);
  });

  test("replying to one's own message in Sent answers its recipients", async () => {
    const subject = `own ${tag()}`;
    await imap.append("Sent", plainText({ from: "alice@example.test", to: "bob@example.test", subject }), ["\\Seen"]);
    const [mine] = await findBySubject(imap, "Sent", subject);
    const draft = await callOk(mcp, "draft_email", { reply_to_uid: mine!.uid, reply_folder: "\\Sent", text: "Following up." });
    expect(addresses((await draftOf(draft.uid)).to)).toEqual(["bob@example.test"]);
  });
});

describe("forward", () => {
  const bytes = randomBytes(300_000);
  const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(2000)]);
  const original = (subject: string) => buildMessage({ subject, from: "Dave <dave@example.org>" },
    mixed([note("The figures are attached.\n"), attached("application/octet-stream", "figures.bin", bytes), attached("application/pdf", "summary.pdf", pdf)]));

  test("inline: Fwd: subject, the header block and the text, the attachments byte for byte, $Forwarded", async () => {
    const subject = `fwd inline ${tag()}`;
    const { folder, uid } = await seed(original(subject), subject);
    const res = await callOk(mcp, "send_email", { to: "bob@example.test", forward_uid: uid, forward_folder: folder, text: "FYI" });
    const got = await received(`Fwd: ${subject}`);
    expect(got.subject).toBe(`Fwd: ${subject}`);
    expect(got.text).toContain(`FYI\n\n---------- Forwarded message ---------\nFrom: Dave <dave@example.org>\nDate: Tue, 5 Mar 2024 at 10:00 UTC\nSubject: ${subject}\nTo: alice@example.test\n\nThe figures are attached.`);
    expect(got.attachments.map((a) => [a.filename, a.contentType])).toEqual([["figures.bin", "application/octet-stream"], ["summary.pdf", "application/pdf"]]);
    expect(Buffer.compare(got.attachments[0]!.content, bytes)).toBe(0);
    expect(Buffer.compare(got.attachments[1]!.content, pdf)).toBe(0);
    expect(got.inReplyTo).toBeUndefined();
    expect((await findBySubject(imap, folder, subject))[0]!.flags.has("$Forwarded")).toBe(true);
    const row = (await srv.deps.activity.list({ grant: grantId })).find((r) => r.details?.message_id === res.message_id);
    expect(row?.details?.forward_of).toEqual({ folder, uid });
  });

  test("as attachment: the whole original as message/rfc822, byte for byte", async () => {
    const subject = `fwd attached ${tag()}`;
    const { folder, uid } = await seed(original(subject), subject);
    const [stored] = await findBySubject(imap, folder, subject);
    await callOk(mcp, "send_email", { to: "bob@example.test", forward_uid: uid, forward_folder: folder, forward_as: "attachment", text: "See attached." });
    const got = await received(`Fwd: ${subject}`);
    expect(got.text?.trim()).toBe("See attached.");
    expect(got.attachments).toHaveLength(1);
    expect(got.attachments[0]!.contentType).toBe("message/rfc822");
    expect(got.attachments[0]!.filename).toBe(`${subject}.eml`);
    expect(Buffer.compare(got.attachments[0]!.content, stored!.raw)).toBe(0);
    // RFC 2046 §5.2.1: an attached message is not base64-encoded.
    expect((await findBySubject(bob, "INBOX", `Fwd: ${subject}`))[0]!.raw.toString("latin1")).toMatch(/Content-Type: message\/rfc822; name="[^"]+"\r\nContent-Transfer-Encoding: 7bit\r\n/);
  });
});

describe("attach by reference and the 20 MB budget", () => {
  test("parts of two messages plus a base64 file, on a draft; nothing passes through the caller", async () => {
    const subjectA = `ref a ${tag()}`;
    const bytes = randomBytes(50_000);
    const a = await seed(buildMessage({ subject: subjectA }, mixed([note("x"), attached("image/png", "photo.png", bytes)])), subjectA);
    const draft = await callOk(mcp, "draft_email", {
      to: "bob@example.test", subject: `with refs ${tag()}`, text: "Two files.",
      attach: [{ folder: a.folder, uid: a.uid, part: "2" }, { folder: a.folder, uid: a.uid, part: "1" }],
      attachments: [{ filename: "local.txt", content_base64: Buffer.from("from elsewhere").toString("base64") }],
    });
    const got = await draftOf(draft.uid);
    expect(got.attachments.map((x) => x.filename)).toEqual(["local.txt", "photo.png", "part-1.txt"]);
    expect(Buffer.compare(got.attachments[1]!.content, bytes)).toBe(0);
    expect(got.attachments[2]!.content.toString()).toBe("x");
    const row = (await srv.deps.activity.list({ grant: grantId })).find((r) => r.details?.message_id === draft.message_id);
    expect(row?.details?.attached_from).toEqual([{ folder: a.folder, uid: a.uid, part: "2" }, { folder: a.folder, uid: a.uid, part: "1" }]);
  });

  test("a part that does not exist lists the message's parts; nothing is saved", async () => {
    const subject = `ref missing ${tag()}`;
    const a = await seed(buildMessage({ subject }, mixed([note("x"), attached("image/png", "photo.png", randomBytes(10))])), subject);
    const res = await call(mcp, "draft_email", { to: "bob@example.test", subject, attach: [{ folder: a.folder, uid: a.uid, part: "7" }] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^attach\[0\]: The message with uid \d+ in "Compose-[0-9a-f]+" has no part "7"\.[^]*part 2: image\/png, photo\.png/);
    expect(await findBySubject(imap, "Drafts", subject)).toEqual([]);
  });

  test("base64 and mailbox parts count together: 12 MB + 9 MB is refused before anything is downloaded", async () => {
    const subject = `ref budget ${tag()}`;
    const a = await seed(buildMessage({ subject }, mixed([note("x"), attached("application/octet-stream", "big.bin", randomBytes(9 * 1024 * 1024))])), subject);
    const res = await call(mcp, "send_email", {
      to: "bob@example.test", subject, text: "x", attach: [{ folder: a.folder, uid: a.uid, part: "2" }],
      attachments: [{ filename: "local.bin", content_base64: randomBytes(12 * 1024 * 1024).toString("base64") }],
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/attachments: 21\.0 MB of attachments in all \(attachments, attach and forwarded parts together\); at most 20\.0 MB/);
    expect(h.smtp.messages.some((m) => m.raw.toString("latin1").includes(subject))).toBe(false);
  });
});

describe("bad combinations are refused before anything happens", () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ to: "bob@example.test", subject: "x", markdown: "*a*", text: "a" }, /markdown: give markdown alone/],
    [{ to: "bob@example.test", reply_to_uid: 1, forward_uid: 2 }, /forward_uid: a message is either a reply/],
    [{ to: "bob@example.test", subject: "x", reply_all: true }, /reply_all: needs reply_to_uid/],
    [{ to: "bob@example.test", subject: "x", forward_as: "attachment" }, /forward_as: needs forward_uid/],
    [{ subject: "x", forward_uid: 1 }, /to: at least one recipient is required/],
    [{ to: "bob@example.test", subject: "x", attach: [{ folder: "INBOX", uid: 1, part: "2;x" }] }, /attach\[0\]\.part: "2;x" is not a part number/],
  ];
  for (const [args, pattern] of cases) {
    test(JSON.stringify(args), async () => {
      const res = await call(mcp, "draft_email", args);
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(pattern);
    });
  }
});
