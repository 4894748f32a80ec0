// Proves the integration harness itself: Dovecot logins, special-use folders, delivery,
// SMTP submission into Dovecot, bulk seeding, fixtures, and no Dovecot left after a crash.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { getHarness, type Harness } from "./harness.ts";
import type { MailUser } from "./dovecot.ts";
import * as fx from "./mail-fixtures.ts";
import { until } from "./until.ts";

let h: Harness;
beforeAll(async () => {
  const t = performance.now();
  h = await getHarness();
  console.log(`harness started in ${Math.round(performance.now() - t)} ms (dovecot :${h.dovecot.port}, smtp :${h.smtp.port})`);
}, 20_000);

function imap(u: MailUser, pass = u.pass): ImapFlow {
  return new ImapFlow({ host: h.dovecot.host, port: h.dovecot.port, secure: false, logger: false, auth: { user: u.user, pass } });
}

/** Runs fn with a logged-in client, always logging out. */
async function withImap<T>(u: MailUser, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
  const c = imap(u);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.logout();
  }
}

/** Raw source of the messages in `folder` whose Subject contains `subject`. */
async function findBySubject(c: ImapFlow, folder: string, subject: string): Promise<string[]> {
  const lock = await c.getMailboxLock(folder);
  try {
    const uids = (await c.search({ subject }, { uid: true })) || [];
    if (!uids.length) return [];
    const out: string[] = [];
    for await (const m of c.fetch(uids, { source: true }, { uid: true })) out.push(m.source?.toString() ?? "");
    return out;
  } finally {
    lock.release();
  }
}

function smtpTransport(u: MailUser, pass = u.pass) {
  return nodemailer.createTransport({ host: h.smtp.host, port: h.smtp.port, secure: false, ignoreTLS: true, auth: { user: u.user, pass } });
}

describe("dovecot", () => {
  test("both users can log in over IMAP", async () => {
    for (const u of Object.values(h.dovecot.users)) {
      const c = imap(u);
      await c.connect();
      expect(c.authenticated).toBeTruthy();
      expect(c.capabilities.has("SPECIAL-USE")).toBe(true);
      await c.logout();
    }
  });

  test("a wrong password is refused", async () => {
    const c = imap(h.dovecot.users.alice, "wrong-password");
    const err = await c.connect().then(() => null, (e: unknown) => e as { authenticationFailed?: boolean });
    expect(err?.authenticationFailed).toBe(true);
    c.close();
  });

  test("list() reports special-use folders and APPEND to Drafts works", async () => {
    await withImap(h.dovecot.users.alice, async (c) => {
      const byUse = new Map((await c.list()).map((m) => [m.specialUse, m]));
      for (const use of ["\\Inbox", "\\Drafts", "\\Sent", "\\Trash", "\\Archive", "\\Junk"]) {
        expect(byUse.get(use)?.path).toBe(use === "\\Inbox" ? "INBOX" : use.slice(1));
      }
      expect(byUse.get("\\Drafts")?.specialUseSource).toBe("extension"); // from the server, not guessed by name
      const res = await c.append("Drafts", fx.plainText({ subject: "draft-append-check" }), ["\\Draft"]);
      expect(res && res.uid).toBeGreaterThan(0);
      expect(await findBySubject(c, "Drafts", "draft-append-check")).toHaveLength(1);
    });
  });

  test("deliver() puts a message into INBOX", async () => {
    await h.dovecot.deliver("alice", fx.withAttachment({ subject: "deliver-check" }));
    const [raw] = await withImap(h.dovecot.users.alice, (c) => findBySubject(c, "INBOX", "deliver-check"));
    const parsed = await simpleParser(raw ?? "");
    expect(Buffer.from(parsed.attachments[0]!.content).equals(Buffer.from(fx.ATTACHMENT_BYTES))).toBe(true);
  });

  test("seedBulk writes 5,000 messages that Dovecot counts", async () => {
    let t = performance.now();
    await h.dovecot.seedBulk("bob", "Bulk", 5000, (i) => fx.plainText({ subject: `bulk ${i}`, to: "bob@example.test" }, `n=${i}\n`));
    const seedMs = performance.now() - t;
    t = performance.now();
    const status = await withImap(h.dovecot.users.bob, (c) => c.status("Bulk", { messages: true }));
    console.log(`seedBulk 5000: write ${Math.round(seedMs)} ms, first STATUS (indexing) ${Math.round(performance.now() - t)} ms`);
    expect(status && status.messages).toBe(5000);
    const ends = await withImap(h.dovecot.users.bob, async (c) => {
      const lock = await c.getMailboxLock("Bulk");
      try {
        return (await c.fetchAll("1,5000", { envelope: true })).map((m) => m.envelope?.subject);
      } finally {
        lock.release();
      }
    });
    expect(ends).toEqual(["bulk 0", "bulk 4999"]); // UIDs follow the seeding order
  });
});

describe("smtp", () => {
  test("AUTH + send delivers into bob's INBOX and is recorded", async () => {
    const info = await smtpTransport(h.dovecot.users.alice).sendMail({
      from: "alice@example.test", to: "bob@example.test", bcc: "someone@elsewhere.example", subject: "smtp-delivery-check", text: "Hi Bob",
    });
    expect(info.accepted).toEqual(["bob@example.test", "someone@elsewhere.example"]);
    const sent = h.smtp.messages.find((m) => m.raw.toString().includes("smtp-delivery-check"));
    expect(sent).toMatchObject({ from: "alice@example.test", user: "alice@example.test" });
    const got = await withImap(h.dovecot.users.bob, (c) => findBySubject(c, "INBOX", "smtp-delivery-check"));
    expect(got).toHaveLength(1);
  });

  test("a wrong SMTP password gives EAUTH", async () => {
    const err = await smtpTransport(h.dovecot.users.alice, "nope").sendMail({ from: "alice@example.test", to: "bob@example.test", text: "x" })
      .then(() => null, (e: { code?: string; responseCode?: number }) => e);
    expect(err).toMatchObject({ code: "EAUTH", responseCode: 535 });
  });

  test("fault injection: rejected recipient and failNext", async () => {
    h.smtp.rejectRecipients.add("bounce@example.test");
    const send = () => smtpTransport(h.dovecot.users.alice).sendMail({ from: "alice@example.test", to: "bounce@example.test", text: "x" });
    expect(await send().catch((e: { responseCode?: number }) => e.responseCode)).toBe(550);
    h.smtp.rejectRecipients.clear();
    h.smtp.failNext = { code: 451, message: "4.3.2 try again later" };
    expect(await send().catch((e: { responseCode?: number }) => e.responseCode)).toBe(451);
    expect((await send()).accepted).toEqual(["bounce@example.test"]); // consumed once
  });
});

describe("fixtures", () => {
  test("encoded headers and threads parse back", async () => {
    const utf8 = await simpleParser(fx.utf8Headers());
    expect(utf8.subject).toBe(fx.UTF8_SUBJECT);
    expect(utf8.from?.value[0]?.name).toBe(fx.UTF8_NAME);
    const [, reply] = await Promise.all(fx.thread(2).map((raw) => simpleParser(raw)));
    expect(reply?.inReplyTo).toBe("<thread-t1-1@example.test>");
    const alt = await simpleParser(fx.alternative());
    expect([alt.text?.trim(), alt.html]).toEqual(["Hello Alice (text)", "<p>Hello <i>Alice</i> (html)</p>"]);
    const months = new Set(fx.spreadOverMonths(12, 6).map((m) => m.date.toISOString().slice(0, 7)));
    expect(months.size).toBe(6);
  });
});

describe("crash safety", () => {
  // A child Bun starts Dovecot, prints where, then dies; nothing of that Dovecot may survive it.
  test.each([
    ["throws", 1, `throw new Error("boom");`],
    ["gets SIGTERM", 143, `await Bun.sleep(60_000);`], // not a wait: the child just stays alive for the SIGTERM
  ])("a process that %s after starting Dovecot leaves none behind", async (_how, exitCode, ending) => {
    const script = `const { startDovecot } = await import(${JSON.stringify(join(import.meta.dir, "dovecot.ts"))});
      const d = await startDovecot(); console.log(JSON.stringify({ port: d.port, dir: d.dir })); ${ending}`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "../..") });
    const { port, dir } = JSON.parse(await firstLine(child.stdout)) as { port: number; dir: string };
    if (exitCode === 143) child.kill("SIGTERM");
    expect(await child.exited).toBe(exitCode);
    const alive = () => Bun.spawnSync(["ps", "-eo", "stat=,args="]).stdout.toString().split("\n")
      .filter((l) => (l.includes(dir) || l.includes(`mailbox-mcp-test-${port}/`)) && !l.startsWith("Z"));
    // Dovecot's children exit by themselves once they notice their master is gone.
    await until(() => alive().length === 0, { what: () => `Dovecot's processes to exit; still running:\n${alive().join("\n")}` });
    expect(alive()).toEqual([]);
    expect(await Bun.file(join(dir, "dovecot.conf")).exists()).toBe(false);
  });
});

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += new TextDecoder().decode(chunk);
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0] ?? "";
}
