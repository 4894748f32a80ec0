// Send-as identities and the signature (issue 44), through the SDK client on the harness Dovecot + SMTP:
// `from` among the identities or refused before any SMTP traffic, replies from the address the
// original came to (To, Cc, Delivered-To), reply-all without any identity, a refused MAIL FROM in
// words, the signature exactly once above the quote (new, reply, forward, draft, update, send_draft),
// each identity's own (a reply from an alias: the alias's),
// and no tool able to set an identity.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { simpleParser, type ParsedMail } from "mailparser";
import { randomBytes } from "node:crypto";
import { getHarness, type Harness } from "../support/harness.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { TOOLS } from "../../src/mcp/tools/index.ts";

let h: Harness, srv: TestServer, mcp: Client, imap: ImapFlow, key: string;
const LOGIN = "alice-identities-test";
const SIGNATURE = "Alice *Example*\nExample Ltd";
const WORK_SIGNATURE = "Alice, Work Ltd";
// Each identity its own signature: the login's, the work alias's, none for the shop's.
const settings = {
  sendAs: [{ name: "Alice at Work", address: "alice@work.example", signature: WORK_SIGNATURE }, { name: null, address: "info@shop.example", signature: null }],
  signature: SIGNATURE,
};

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port), undefined, { login: LOGIN });
  key = srv.deps.store.identities.keyOf(LOGIN);
  await srv.deps.store.identities.set(key, settings);
  mcp = await connectClient(srv.mcpUrl, grant.token);
  imap = await loginImap(h.dovecot, h.dovecot.users.alice);
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await imap?.logout();
  await srv?.stop();
});

const tag = () => randomBytes(4).toString("hex");
const sentWith = (subject: string) => h.smtp.messages.find((m) => m.raw.toString("latin1").includes(subject));
const addresses = (field: ParsedMail["to"]) => (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

async function seed(raw: string, subject: string): Promise<{ folder: string; uid: number }> {
  const folder = `Ident-${tag()}`;
  await imap.mailboxCreate(folder);
  await h.dovecot.deliver("alice", raw, folder);
  return { folder, uid: (await findBySubject(imap, folder, subject))[0]!.uid };
}
async function draftOf(uid: number): Promise<ParsedMail> {
  const lock = await imap.getMailboxLock("Drafts");
  try {
    await imap.noop();
    const msg = await imap.fetchOne(String(uid), { source: true }, { uid: true });
    if (!msg || !msg.source) throw new Error(`no draft uid ${uid}`);
    return simpleParser(msg.source);
  } finally {
    lock.release();
  }
}

describe("from", () => {
  test("an identity's address (any case) sends as it, with its display name, and MAIL FROM is that address", async () => {
    const subject = `send as ${tag()}`;
    const res = await callOk(mcp, "send_email", { to: "bob@example.test", subject, text: "Hi", from: "ALICE@work.example" });
    expect(res.status).toBe("sent");
    expect(res.from).toBe("alice@work.example");
    const wire = sentWith(subject)!;
    expect(wire.from).toBe("alice@work.example");
    const mail = await simpleParser(wire.raw);
    expect(mail.from?.value[0]).toEqual({ name: "Alice at Work", address: "alice@work.example" });
  });

  test("a from that is not an identity is an argument error listing them, and the SMTP server sees nothing", async () => {
    const before = h.smtp.messages.length;
    const commands = h.smtp.dataCommands.length;
    const res = await call(mcp, "send_email", { to: "bob@example.test", subject: `nope ${tag()}`, text: "x", from: "boss@evil.example" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("from:");
    expect(textOf(res)).toContain("Alice at Work <alice@work.example>");
    expect(textOf(res)).toContain("info@shop.example");
    expect(h.smtp.messages.length).toBe(before);
    expect(h.smtp.dataCommands.length).toBe(commands);
  });

  test("dry_run shows the From identity", async () => {
    const res = await callOk(mcp, "send_email", { to: "bob@example.test", subject: `dry ${tag()}`, text: "x", from: "info@shop.example", dry_run: true });
    expect(res.preview.from).toBe("info@shop.example");
    expect(res.from).toBe("info@shop.example");
  });

  test("a MAIL FROM the server refuses: the error names the address and what to set up at the provider", async () => {
    h.smtp.refuseSenders.add("info@shop.example");
    try {
      const res = await call(mcp, "send_email", { to: "bob@example.test", subject: `refused ${tag()}`, text: "x", from: "info@shop.example" });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain("refused to send as info@shop.example");
      expect(textOf(res)).toContain("Nothing was sent");
      expect(textOf(res)).toMatch(/Send As|Sending identities/);
    } finally {
      h.smtp.refuseSenders.clear();
    }
  });
});

describe("replies from the addressed identity", () => {
  const original = (subject: string, to: string[], cc: string[] = [], headers: Record<string, string> = {}) => plainText({
    from: "Carol <carol@example.net>", subject, messageId: `<${tag()}@example.net>`, to, cc, headers, date: new Date("2026-11-21T14:00:00Z"),
  }, "Question?\n");

  for (const [how, make] of [
    ["To", (s: string) => original(s, ["Alice at Work <ALICE@work.example>"])],
    ["Cc", (s: string) => original(s, ["list@lists.example"], ["alice@work.example"])],
    ["Delivered-To", (s: string) => original(s, ["list@lists.example"], [], { "Delivered-To": "alice@work.example" })],
  ] as const) {
    test(`addressed in ${how}`, async () => {
      const subject = `addressed ${how} ${tag()}`;
      const { folder, uid } = await seed(make(subject), subject);
      const res = await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, text: "Answer." });
      const mail = await draftOf(res.uid);
      expect(mail.from?.value[0]).toEqual({ name: "Alice at Work", address: "alice@work.example" });
    });
  }

  test("addressed to none of them: the login address; a forward likewise picks the addressed one", async () => {
    const subject = `not addressed ${tag()}`;
    const { folder, uid } = await seed(original(subject, ["list@lists.example"]), subject);
    const reply = await draftOf((await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, text: "A." })).uid);
    expect(reply.from?.value[0]?.address).toBe(h.dovecot.users.alice.email);
    const s2 = `fwd addressed ${tag()}`;
    const o2 = await seed(original(s2, ["info@shop.example"]), s2);
    const fwd = await draftOf((await callOk(mcp, "draft_email", { forward_uid: o2.uid, forward_folder: o2.folder, to: "bob@example.test" })).uid);
    expect(fwd.from?.value[0]?.address).toBe("info@shop.example");
  });

  test("reply-all leaves every identity of the mailbox out", async () => {
    const subject = `reply all ids ${tag()}`;
    const alice = h.dovecot.users.alice.email;
    const { folder, uid } = await seed(original(subject, ["alice@work.example", "dave@example.org", alice], ["INFO@shop.example", "erin@example.org"]), subject);
    const mail = await draftOf((await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, reply_all: true, text: "All." })).uid);
    expect(addresses(mail.to)).toEqual(["carol@example.net", "dave@example.org"]);
    expect(addresses(mail.cc)).toEqual(["erin@example.org"]);
  });
});

describe("signature", () => {
  test("a new message: below the text after the '-- ' line, and in a marked HTML block", async () => {
    const subject = `sig new ${tag()}`;
    await callOk(mcp, "send_email", { to: "bob@example.test", subject, markdown: "Hello **Bob**" });
    const mail = await simpleParser(sentWith(subject)!.raw);
    expect(mail.text?.trimEnd()).toBe("Hello Bob\n\n-- \nAlice Example\nExample Ltd");
    expect(count(mail.html as string, 'class="mailbox-mcp-signature"')).toBe(1);
  });

  test("signature: false leaves it out", async () => {
    const subject = `sig off ${tag()}`;
    await callOk(mcp, "send_email", { to: "bob@example.test", subject, text: "Plain", signature: false });
    expect((await simpleParser(sentWith(subject)!.raw)).text).toBe("Plain\n");
  });

  test("a reply: once, above the quote; a forward: once, above the forwarded message", async () => {
    const subject = `sig reply ${tag()}`;
    const { folder, uid } = await seed(plainText({ from: "carol@example.net", subject, to: [h.dovecot.users.alice.email] }, "Original text\n"), subject);
    const reply = await draftOf((await callOk(mcp, "draft_email", { reply_to_uid: uid, reply_folder: folder, text: "Mine." })).uid);
    expect(reply.text).toMatch(/^Mine\.\n\n-- \nAlice Example\nExample Ltd\n\nOn .* wrote:\n> Original text/);
    const fwd = await draftOf((await callOk(mcp, "draft_email", { forward_uid: uid, forward_folder: folder, to: "bob@example.test", text: "FYI" })).uid);
    expect(fwd.text).toMatch(/^FYI\n\n-- \nAlice Example\nExample Ltd\n\n---------- Forwarded message/);
  });

  test("a reply sent from an alias (the address the original came to) carries the alias's signature, once, above the quote", async () => {
    const subject = `sig alias reply ${tag()}`;
    const { folder, uid } = await seed(plainText({ from: "carol@example.net", subject, to: ["alice@work.example"] }, "Original text\n"), subject);
    const res = await callOk(mcp, "send_email", { reply_to_uid: uid, reply_folder: folder, text: "Mine." });
    expect(res.from).toBe("alice@work.example");
    const mail = await simpleParser(sentWith(`Re: ${subject}`)!.raw);
    expect(mail.from?.value[0]?.address).toBe("alice@work.example");
    expect(mail.text).toMatch(/^Mine\.\n\n-- \nAlice, Work Ltd\n\nOn .* wrote:\n> Original text/);
    expect(mail.text).not.toContain("Example Ltd");
    expect(count(mail.text!, "\n-- \n")).toBe(1);
  });

  test("an identity without a signature of its own sends unsigned; from an alias, its signature", async () => {
    const shop = `sig shop ${tag()}`;
    await callOk(mcp, "send_email", { to: "bob@example.test", subject: shop, text: "Order", from: "info@shop.example" });
    expect((await simpleParser(sentWith(shop)!.raw)).text).toBe("Order\n");
    const work = `sig work ${tag()}`;
    await callOk(mcp, "send_email", { to: "bob@example.test", subject: work, text: "Memo", from: "alice@work.example" });
    expect((await simpleParser(sentWith(work)!.raw)).text).toBe("Memo\n\n-- \nAlice, Work Ltd\n");
  });

  test("a draft carries it; update_draft and send_draft never add a second one", async () => {
    const subject = `sig draft ${tag()}`;
    const d = await callOk(mcp, "draft_email", { to: "bob@example.test", subject, text: "Draft text" });
    expect(count((await draftOf(d.uid)).text!, "\n-- \n")).toBe(1);
    const kept = await callOk(mcp, "update_draft", { uid: d.uid, cc: "carol@example.net" });
    expect(count((await draftOf(kept.uid)).text!, "\n-- \n")).toBe(1);
    const rewritten = await callOk(mcp, "update_draft", { uid: kept.uid, text: "New text" });
    const body = (await draftOf(rewritten.uid)).text!;
    expect(body).toBe("New text\n\n-- \nAlice Example\nExample Ltd\n");
    await callOk(mcp, "send_draft", { uid: rewritten.uid });
    expect(count((await simpleParser(sentWith(subject)!.raw)).text!, "\n-- \n")).toBe(1);
  });
});

test("no tool can set an identity or a signature: every write tool's arguments, tried", async () => {
  const before = await srv.deps.store.identities.get(key);
  const attempts = { send_as: "evil@attacker.example", identities: ["evil@attacker.example"], signature_text: "pwned", identity: "evil@attacker.example" };
  for (const tool of TOOLS.filter((t) => t.kind === "write")) {
    const fields = Object.keys((tool.config as { inputSchema?: Record<string, unknown> }).inputSchema ?? {});
    // No write tool has a field that could hold an identity or a signature's text.
    expect(fields.filter((f) => /send_as|identit|signature_text/.test(f))).toEqual([]);
    await call(mcp, tool.name, { ...attempts, dry_run: true }).catch(() => null);
  }
  expect(await srv.deps.store.identities.get(key)).toEqual(before);
  const res = await call(mcp, "send_email", { to: "bob@example.test", subject: "x", text: "x", from: "evil@attacker.example", dry_run: true });
  expect(res.isError).toBe(true);
});
