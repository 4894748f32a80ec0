// send_draft through the send gate (docs/design.md §3): the same policy, confirmation, at-most-once
// and caps as send_email. A draft held for the person's say-so stays where it is (no second copy in
// Drafts); confirmed, it is sent exactly as saved and leaves Drafts; "never" refuses it; a retry of a
// sent draft gets the first outcome rather than "no such draft".
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { findBySubject } from "../../support/imap.ts";
import { call, callOk, textOf } from "../../support/mcp-client.ts";
import { issueTestGrant } from "../../support/token.ts";
import { aliceServer } from "../../support/alice-server.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");

/** A client of a grant with `policy`; `answer` makes it declare elicitation and answer so. */
async function client(policy: SendPolicy, answer?: "send" | "keep_as_draft"): Promise<{ c: Client; asked: () => number }> {
  const account = fx.account();
  const { token } = await issueTestGrant(fx.srv.deps, account, "email:read email:write", undefined, policy);
  let asked = 0;
  const c = new Client({ name: "drafts", version: "0" }, answer ? { capabilities: { elicitation: {} } } : {});
  if (answer) c.setRequestHandler(ElicitRequestSchema, async () => (asked++, { action: "accept", content: { decision: answer } }));
  await c.connect(new StreamableHTTPClientTransport(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  fx.open.push(c);
  return { c, asked: () => asked };
}

const delivered = (subject: string) => fx.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).length;

async function draft(c: Client, to: string): Promise<{ subject: string; uid: number }> {
  const subject = `draft ${tag()}`;
  const d = await callOk(c, "draft_email", { to, subject, text: "Written earlier." });
  return { subject, uid: d.uid };
}

describe("send_draft through the send gate", () => {
  test("a stranger, a client that cannot be asked: held, the draft stays as it was, nothing sent", async () => {
    const { c } = await client("new_recipients");
    const d = await draft(c, `stranger-${tag()}@example.net`);
    const res = await call(c, "send_draft", { uid: d.uid });
    expect(res.structuredContent).toMatchObject({ status: "held_as_draft", decision: "held_as_draft", draft: { folder: "Drafts", uid: d.uid } });
    expect(delivered(d.subject)).toBe(0);
    expect((await findBySubject(fx.imap, "Drafts", d.subject)).map((m) => m.uid)).toEqual([d.uid]); // no second copy
  });

  test("confirmed by elicitation: sent exactly as saved, gone from Drafts; a retry gets the first outcome", async () => {
    const { c, asked } = await client("new_recipients", "send");
    const d = await draft(c, `stranger-${tag()}@example.net`);
    const sent = await call(c, "send_draft", { uid: d.uid });
    expect(sent.structuredContent).toMatchObject({ status: "sent", decision: "confirmed", saved_to: "Sent" });
    expect(textOf(sent)).toContain("The draft was removed from Drafts.");
    expect(asked()).toBe(1);
    expect(delivered(d.subject)).toBe(1);
    expect(await findBySubject(fx.imap, "Drafts", d.subject)).toHaveLength(0);
    const again = await call(c, "send_draft", { uid: d.uid });
    expect(again.structuredContent).toMatchObject({ status: "sent", decision: "repeat" });
    expect(delivered(d.subject)).toBe(1);
  });

  test("kept as a draft by the person: nothing sent, the draft stays", async () => {
    const { c } = await client("always", "keep_as_draft");
    const d = await draft(c, fx.h.dovecot.users.alice.email);
    expect((await call(c, "send_draft", { uid: d.uid })).structuredContent).toMatchObject({ status: "held_as_draft", decision: "declined" });
    expect(delivered(d.subject)).toBe(0);
    expect(await findBySubject(fx.imap, "Drafts", d.subject)).toHaveLength(1);
  });

  test("never: refused; dry_run says what would go out", async () => {
    const { c } = await client("never");
    const d = await draft(c, fx.h.dovecot.users.alice.email);
    expect(textOf(await call(c, "send_draft", { uid: d.uid }))).toContain("this connection may not send email");
    const dry = await call(c, "send_draft", { uid: d.uid, dry_run: true });
    expect(dry.structuredContent).toMatchObject({ status: "dry_run", preview: { to: [fx.h.dovecot.users.alice.email], subject: d.subject, policy: "never" } });
    expect(delivered(d.subject)).toBe(0);
    expect(await findBySubject(fx.imap, "Drafts", d.subject)).toHaveLength(1);
  });
});
