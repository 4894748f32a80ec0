// unsubscribe through a real server, the harness Dovecot and SMTP receiver, and a local HTTPS
// receiver with a self-signed certificate (test/support/https-receiver.ts): the RFC 8058 one-click
// POST and its refusals (an untrusted certificate, a redirect not followed, an error status, the 5 s
// budget, a private host without MAILBOX_MCP_ALLOW_PRIVATE_HOSTS, an http: link which is no way at
// all), each a tool error saying what happened; the mailto: way through the send gate; a message with
// neither says so; every call is in the activity log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { aliceServer } from "../../support/alice-server.ts";
import { aliasClient } from "../../support/alias-client.ts";
import { startHttpsReceiver, type HttpsReceiver } from "../../support/https-receiver.ts";
import { findBySubject } from "../../support/imap.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../../support/mcp-client.ts";
import { issueTestGrant } from "../../support/token.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");
let web: HttpsReceiver;
beforeAll(() => {
  web = startHttpsReceiver();
});
afterAll(() => web?.stop());

async function client(policy: SendPolicy = "direct", srv: TestServer = fx.srv): Promise<{ c: Client; grantId: string }> {
  const { token, grantId } = await issueTestGrant(srv.deps, fx.account(), "email:read email:write", undefined, policy);
  const c = await connectClient(srv.mcpUrl, token);
  fx.open.push(c);
  return { c, grantId };
}

/** A list message in alice's INBOX with these List-Unsubscribe header values; its uid and subject. */
async function listMail(links: string[], oneClick: boolean, to = fx.h.dovecot.users.alice.email, more: Record<string, string> = {}): Promise<{ uid: number; subject: string }> {
  const subject = `newsletter ${tag()}`;
  const headers: Record<string, string> = links.length ? { "List-Unsubscribe": links.map((l) => `<${l}>`).join(", ") } : {};
  if (oneClick) headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  await fx.h.dovecot.deliver("alice", plainText({ subject, headers: { ...headers, ...more }, to }));
  const [found] = await findBySubject(fx.imap, "INBOX", subject);
  return { uid: found!.uid, subject };
}

const posts = (path: string) => web.received.filter((r) => r.path === path);

describe("unsubscribe: one-click (RFC 8058)", () => {
  test("an untrusted (self-signed) certificate is refused: a tool error, nothing posted, logged as an error", async () => {
    const { c, grantId } = await client();
    const path = `/untrusted-${tag()}`;
    const { uid } = await listMail([web.answer(path)], true);
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("Not unsubscribed:");
    expect(textOf(res)).toContain("the connection or TLS failed");
    expect(textOf(res)).not.toContain("Invalid arguments");
    expect(posts(path)).toHaveLength(0);
    const [row] = await fx.srv.deps.activity.list({ grant: grantId });
    expect(row).toMatchObject({ tool: "unsubscribe", outcome: "error", details: { folder: "INBOX", uids: [uid] } });
  });

  test("summaries show the offer; dry_run posts nothing; the POST carries the one-click body; the activity log has it", async () => {
    web.trust();
    const { c, grantId } = await client();
    const path = `/unsub-${tag()}`;
    const mailto = `mailto:leave-${tag()}@lists.example`;
    const { uid, subject } = await listMail([web.answer(path), mailto], true);
    const found = await callOk(c, "search_emails", { subject });
    expect(found.emails[0].unsubscribe).toEqual({ one_click: true, https: web.url(path), mailto });
    const dry = await callOk(c, "unsubscribe", { folder: "INBOX", uid, dry_run: true });
    expect(dry).toMatchObject({ method: "one_click", status: "dry_run", target: web.url(path) });
    expect(posts(path)).toHaveLength(0);
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    expect(res.structuredContent).toMatchObject({ method: "one_click", status: "unsubscribed", target: web.url(path) });
    expect(posts(path)).toEqual([{ method: "POST", path, contentType: "application/x-www-form-urlencoded", body: "List-Unsubscribe=One-Click" }]);
    expect(fx.h.smtp.messages.filter((m) => m.to.includes(mailto.slice("mailto:".length)))).toHaveLength(0); // not both ways
    const rows = await fx.srv.deps.activity.list({ grant: grantId });
    expect(rows.map((r) => [r.tool, r.outcome])).toEqual([["unsubscribe", "ok"], ["unsubscribe", "ok"]]);
    expect(rows[0]!.details).toMatchObject({ folder: "INBOX", uids: [uid] });
  });

  for (const [what, route, words] of [
    ["a redirect is not followed", (p: string) => web.redirect(p, web.answer(`${p}-target`)), "answered with a redirect, which is not followed"],
    ["an error status", (p: string) => web.answer(p, 500), "answered HTTP 500"],
  ] as const) {
    test(`${what}: a tool error saying what happened`, async () => {
      const { c } = await client();
      const path = `/r-${tag()}`;
      const { uid } = await listMail([route(path)], true);
      const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain(words);
      expect(posts(path)).toHaveLength(1);
      expect(posts(`${path}-target`)).toHaveLength(0);
    });
  }

  test("a link that never answers: given up after the 5 s budget", async () => {
    const { c } = await client();
    const path = `/held-${tag()}`;
    const { uid } = await listMail([web.hold(path)], true);
    const started = performance.now();
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    const took = performance.now() - started;
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("could not be fetched within 5 seconds");
    expect(took).toBeGreaterThanOrEqual(4900);
    expect(took).toBeLessThan(15_000);
  }, 30_000);

  test("a private host without MAILBOX_MCP_ALLOW_PRIVATE_HOSTS is not contacted", async () => {
    const strict = await startTestServer({ config: { allowPrivateHosts: false } });
    try {
      const { c } = await client("direct", strict);
      const path = `/private-${tag()}`;
      const { uid } = await listMail([web.answer(path)], true);
      const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain("is on a private network or reserved address");
      expect(posts(path)).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });
});

describe("unsubscribe: the mailto: way and none", () => {
  test("an http: link is no way at all; with a mailto: beside it the request is mailed through the gate", async () => {
    const { c, grantId } = await client();
    const list = `leave-${tag()}@lists.example`;
    const word = `unsub-${tag()}`;
    const { uid } = await listMail([`http://127.0.0.1:9/${word}`, `mailto:${list}?subject=${word}`], true);
    const dry = await callOk(c, "unsubscribe", { folder: "INBOX", uid, dry_run: true });
    expect(dry).toMatchObject({ method: "mailto", status: "dry_run" });
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    expect(res.structuredContent).toMatchObject({ method: "mailto", status: "sent", target: `mailto:${list}?subject=${word}` });
    const got = fx.h.smtp.messages.filter((m) => m.to.includes(list));
    expect(got).toHaveLength(1);
    expect(got[0]!.from).toBe(fx.h.dovecot.users.alice.email);
    expect(got[0]!.raw.toString("latin1")).toContain(`Subject: ${word}`);
    // The row names the list message and the list's address, never the subject the link asked for.
    const rows = await fx.srv.deps.activity.list({ grant: grantId });
    const alice = fx.h.dovecot.users.alice.email;
    expect(rows.map((r) => r.details)).toEqual([
      { folder: "INBOX", uids: [uid], decision: "dry_run", message_id: null, recipients: [list], from: alice },
      { folder: "INBOX", uids: [uid], decision: "sent_directly", message_id: expect.stringMatching(/^<.+>$/), recipients: [list], from: alice },
    ]);
    expect(JSON.stringify(rows)).not.toContain(word);

    const onlyHttp = await listMail([`http://127.0.0.1:9/${word}`], true);
    const none = await call(c, "unsubscribe", { folder: "INBOX", uid: onlyHttp.uid });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain("offers no way to unsubscribe");
  });

  test("the request goes out from the identity the list message was addressed to (To, else Delivered-To), under its name", async () => {
    const { c, work } = await aliasClient(fx);
    for (const [to, more] of [[`"Alice" <${work.toUpperCase()}>`, {}], [`members-${tag()}@lists.example`, { "Delivered-To": work }]] as const) {
      const list = `leave-${tag()}@lists.example`;
      const { uid } = await listMail([`mailto:${list}`], false, to, more);
      expect((await call(c, "unsubscribe", { folder: "INBOX", uid })).structuredContent).toMatchObject({ method: "mailto", status: "sent" });
      const [got] = fx.h.smtp.messages.filter((m) => m.to.includes(list));
      expect(got!.from).toBe(work);
      expect(got!.raw.toString("latin1")).toContain(`From: Alice at Work <${work}>`);
    }
  });

  test("the list address is new under 'ask for new recipients' and the client cannot be asked: held as a draft, nothing mailed", async () => {
    const { c } = await client("new_recipients");
    const list = `leave-${tag()}@lists.example`;
    const { uid } = await listMail([`mailto:${list}`], false);
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    expect(res.structuredContent).toMatchObject({ method: "mailto", status: "held_as_draft" });
    expect(fx.h.smtp.messages.filter((m) => m.to.includes(list))).toHaveLength(0);
  });

  test("a message with no List-Unsubscribe: says so, as a tool error", async () => {
    const { c } = await client();
    const { uid } = await listMail([], false);
    const res = await call(c, "unsubscribe", { folder: "INBOX", uid });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("offers no way to unsubscribe");
  });
});
