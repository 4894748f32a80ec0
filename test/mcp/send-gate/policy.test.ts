// The send policy through the official v1 SDK client that declares no elicitation (it can neither
// be asked nor show a card), a real server, the harness Dovecot and SMTP receiver: "send without
// asking" behaves as before; "never" refuses every send and leaves nothing; "ask for new recipients"
// sends at once to an address found in Sent (exactly: a look-alike found by IMAP's substring SEARCH
// does not count) and holds a first message to a stranger as a draft, with words for the model;
// "always" holds even that; dry_run says all this without doing it; the activity log records each
// decision.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { findBySubject } from "../../support/imap.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { call, connectClient, textOf } from "../../support/mcp-client.ts";
import { issueTestGrant } from "../../support/token.ts";
import { aliceServer } from "../../support/alice-server.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");

async function clientWith(policy: SendPolicy): Promise<{ client: Client; grantId: string }> {
  const account = fx.account();
  const { token, grantId } = await issueTestGrant(fx.srv.deps, account, "email:read email:write", undefined, policy);
  const client = await connectClient(fx.srv.mcpUrl, token);
  fx.open.push(client);
  return { client, grantId };
}

/** Messages the SMTP receiver got whose raw text holds `subject`. */
const delivered = (subject: string) => fx.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject));

/** Files a message alice "sent" to `to` in her Sent folder, as her mail app would have. */
const alreadySentTo = (to: string) =>
  fx.h.dovecot.deliver("alice", plainText({ from: fx.h.dovecot.users.alice.email, to, subject: `earlier ${tag()}` }), "Sent", ["\\Seen"]);

describe("send policies with a client that cannot be asked", () => {
  test("direct: a stranger gets the message at once, as before send policies", async () => {
    const { client } = await clientWith("direct");
    const subject = `direct ${tag()}`;
    const res = await call(client, "send_email", { to: `stranger-${tag()}@example.net`, subject, text: "hi" });
    expect(res.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly", saved_to: "Sent", draft: null, reason: null });
    expect(delivered(subject)).toHaveLength(1);
  });

  test("never: refused, nothing sent, nothing saved; a dry run says it would be refused", async () => {
    const { client } = await clientWith("never");
    const subject = `never ${tag()}`;
    const res = await call(client, "send_email", { to: fx.h.dovecot.users.alice.email, subject, text: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain('this connection may not send email (the person chose "never send"');
    expect(textOf(res)).toContain("draft_email");
    const dry = await call(client, "send_email", { to: "bob@example.test", subject, text: "x", dry_run: true });
    expect(dry.structuredContent).toMatchObject({ status: "dry_run", preview: { policy: "never", would_ask: false } });
    expect(textOf(dry)).toContain("It would be refused");
    expect(delivered(subject)).toHaveLength(0);
    expect(await findBySubject(fx.imap, "Drafts", subject)).toHaveLength(0);
  });

  test("new_recipients: a recipient found in Sent is not asked; a stranger's first message is held as a draft with words to pass on", async () => {
    const { client } = await clientWith("new_recipients");
    const known = `known-${tag()}@example.net`;
    await alreadySentTo(`Known Person <${known}>`);
    const subject = `known ${tag()}`;
    const sent = await call(client, "send_email", { to: known, subject, text: "again" });
    expect(sent.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
    expect(delivered(subject)).toHaveLength(1);

    const stranger = `stranger-${tag()}@example.net`;
    const held = `held ${tag()}`;
    const res = await call(client, "send_email", { to: [known, stranger], subject: held, text: "first contact" });
    expect(res.isError).toBeFalsy();
    const r = res.structuredContent as { status: string; decision: string; draft: { folder: string; uid: number }; reason: string; accepted: string[] };
    expect(r).toMatchObject({ status: "held_as_draft", decision: "held_as_draft", accepted: [], saved_to: null });
    expect(r.reason).toContain(`writing to someone new (${stranger})`);
    expect(r.reason).toContain("this app cannot ask them");
    expect(r.reason).toContain(`saved as a draft in Drafts (uid ${r.draft.uid})`);
    expect(r.reason).toContain("send it from there");
    expect(delivered(held)).toHaveLength(0);
    const [draft] = await findBySubject(fx.imap, "Drafts", held);
    expect(draft?.uid).toBe(r.draft.uid);
    expect(draft?.flags.has("\\Draft")).toBe(true);
  });

  test("new_recipients: a look-alike of a known address (IMAP SEARCH matches substrings) is still new", async () => {
    const { client } = await clientWith("new_recipients");
    const base = `lookalike-${tag()}@example.net`;
    await alreadySentTo(`m${base}`); // SEARCH TO "<base>" finds this one
    const subject = `lookalike ${tag()}`;
    const res = await call(client, "send_email", { to: base, subject, text: "x" });
    expect(res.structuredContent).toMatchObject({ status: "held_as_draft" });
    expect(delivered(subject)).toHaveLength(0);
  });

  test("new_recipients: the mailbox's own address is never new", async () => {
    const { client } = await clientWith("new_recipients");
    const subject = `to myself ${tag()}`;
    const res = await call(client, "send_email", { to: fx.h.dovecot.users.alice.email, subject, text: "note to self" });
    expect(res.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
  });

  test("always: even a known recipient is held", async () => {
    const { client } = await clientWith("always");
    const known = `known-${tag()}@example.net`;
    await alreadySentTo(known);
    const subject = `always ${tag()}`;
    const res = await call(client, "send_email", { to: known, subject, text: "x" });
    expect(res.structuredContent).toMatchObject({ status: "held_as_draft" });
    expect((res.structuredContent as { reason: string }).reason).toContain("asks the person before every send");
    expect(delivered(subject)).toHaveLength(0);
  });

  test("dry_run: exactly what would be sent, which policy applies and who is new; nothing sent, saved or counted", async () => {
    const { client } = await clientWith("new_recipients");
    const known = `known-${tag()}@example.net`;
    await alreadySentTo(known);
    const stranger = `stranger-${tag()}@example.net`;
    const hidden = `hidden-${tag()}@example.net`;
    const subject = `dry ${tag()}`;
    const bytes = randomBytes(3000);
    const res = await call(client, "send_email", {
      to: known, cc: `Someone <${stranger}>`, bcc: hidden, subject, text: "would go", dry_run: true,
      attachments: [{ filename: "a.bin", content_base64: bytes.toString("base64") }],
    });
    const r = res.structuredContent as { status: string; message_id: null; preview: Record<string, unknown> };
    expect(r.status).toBe("dry_run");
    expect(r.message_id).toBeNull();
    expect(r.preview).toMatchObject({
      from: fx.h.dovecot.users.alice.email, to: [known], cc: [stranger], bcc: [hidden], subject,
      attachments: [{ filename: "a.bin", size: 3000 }], policy: "new_recipients", would_ask: true,
      new_recipients: [stranger, hidden],
    });
    expect(r.preview.size).toBeGreaterThan(4000);
    expect(textOf(res)).toContain("The person would be asked first");
    expect(delivered(subject)).toHaveLength(0);
    expect(await findBySubject(fx.imap, "Drafts", subject)).toHaveLength(0);
  });

  test("the activity log records each decision", async () => {
    const { client, grantId } = await clientWith("new_recipients");
    const subject = `logged ${tag()}`;
    await call(client, "send_email", { to: fx.h.dovecot.users.alice.email, subject, text: "x" });
    await call(client, "send_email", { to: `stranger-${tag()}@example.net`, subject, text: "x" });
    await call(client, "send_email", { to: `stranger-${tag()}@example.net`, subject, text: "x", dry_run: true });
    const rows = await fx.srv.deps.activity.list({ grant: grantId });
    expect(rows.map((r) => [r.tool, r.outcome, r.details?.decision])).toEqual([
      ["send_email", "ok", "sent_directly"], ["send_email", "ok", "held_as_draft"], ["send_email", "ok", "dry_run"],
    ]);
    expect(rows[1]!.details).toMatchObject({ folder: "Drafts", uids: [expect.any(Number)] });
  });
});
