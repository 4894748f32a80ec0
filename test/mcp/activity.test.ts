// The owner's activity log through the real server and the harness Dovecot + SMTP: a row after each
// write tool call (success and failure), none for reads, never a subject, body or attachment.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let grantId: string;
const tag = () => randomBytes(4).toString("hex");
const SECRET_BODY = `body-${tag()}-never-logged`;
const SECRET_SUBJECT = `subject-${tag()}-never-logged`;

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port));
  grantId = (await srv.deps.grants.findToken(grant.token))!.grantId;
  mcp = await connectClient(srv.mcpUrl, grant.token);
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await srv?.stop();
});

const rows = () => srv.deps.activity.list({ grant: grantId });

describe("activity log", () => {
  test("reading tools leave no row", async () => {
    const before = (await rows()).length;
    await callOk(mcp, "list_mailboxes");
    await callOk(mcp, "get_recent_emails", { limit: 2 });
    await callOk(mcp, "search_emails", { subject: "nothing-matches" });
    await callOk(mcp, "list_providers");
    expect((await rows()).length).toBe(before);
  });

  test("draft_email and send_email: recipients, folder, uid, Message-ID; no subject or body", async () => {
    const before = (await rows()).length;
    const draft = await callOk(mcp, "draft_email", { to: ["bob@example.test"], cc: "Carol <carol@example.test>", subject: SECRET_SUBJECT, text: SECRET_BODY });
    const sent = await callOk(mcp, "send_email", {
      to: "bob@example.test", bcc: ["dave@example.test"], subject: SECRET_SUBJECT, text: SECRET_BODY,
      attachments: [{ filename: "a.txt", content_base64: Buffer.from(SECRET_BODY).toString("base64") }],
    });
    const [d, s] = (await rows()).slice(before);
    expect(d).toMatchObject({ tool: "draft_email", outcome: "ok", grantId, details: {
      recipients: ["bob@example.test", "Carol <carol@example.test>"], folder: draft.folder, uids: [draft.uid], message_id: draft.message_id,
    } });
    expect(s).toMatchObject({ tool: "send_email", outcome: "ok", details: {
      recipients: ["bob@example.test", "dave@example.test"], folder: sent.saved_to, message_id: sent.message_id,
    } });
    const stored = JSON.stringify(await srv.deps.db.q`SELECT * FROM activity`) + JSON.stringify(await rows());
    for (const secret of [SECRET_BODY, SECRET_SUBJECT, Buffer.from(SECRET_BODY).toString("base64")]) expect(stored).not.toContain(secret);
    // The database alone does not name recipients either: details are sealed.
    expect(JSON.stringify(await srv.deps.db.q`SELECT * FROM activity`)).not.toContain("bob@example.test");
  });

  test("mark_as_read and move_email: folder, uids, new uids", async () => {
    const folder = `Act-${tag()}`;
    await callOk(mcp, "list_mailboxes");
    await h.dovecot.deliver("alice", plainText({ subject: `seed ${folder}`, messageId: `<${folder}@example.test>` }), "INBOX");
    const found = await callOk<{ emails: Array<{ uid: number }> }>(mcp, "search_emails", { subject: `seed ${folder}` });
    const uid = found.emails[0]!.uid;
    const before = (await rows()).length;
    await callOk(mcp, "mark_as_read", { folder: "INBOX", uids: [uid] });
    const moved = await callOk<{ moved: Array<{ uid: number; new_uid: number }> }>(mcp, "move_email", { folder: "INBOX", uids: [uid], destination: "Archive" });
    const [m, v] = (await rows()).slice(before);
    expect(m).toMatchObject({ tool: "mark_as_read", outcome: "ok", details: { folder: "INBOX", uids: [uid], read: true } });
    expect(v).toMatchObject({ tool: "move_email", outcome: "ok", details: { folder: "INBOX", destination: "Archive", uids: [uid], moved: moved.moved } });
  });

  test("a failed write is recorded with its error", async () => {
    const before = (await rows()).length;
    const res = await call(mcp, "move_email", { folder: "INBOX", uids: [999_999], destination: "No-Such-Folder" });
    expect(res.isError).toBe(true);
    const bad = await call(mcp, "send_email", { to: "not an address", subject: "x", text: "y" });
    expect(bad.isError).toBe(true);
    const [move, send] = (await rows()).slice(before);
    expect(move).toMatchObject({ tool: "move_email", outcome: "error", details: { destination: "No-Such-Folder", uids: [999_999] } });
    expect(move!.details!.error).toBeString();
    expect(send).toMatchObject({ tool: "send_email", outcome: "error", details: { recipients: ["not an address"] } });
  });

  test("rows outlive their grant's revocation and go after 90 days", async () => {
    const extra = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port));
    const extraGrant = (await srv.deps.grants.findToken(extra.token))!.grantId;
    await srv.deps.activity.record({ grantId: extraGrant, tool: "mark_as_read", outcome: "ok", details: { folder: "INBOX", uids: [1] } });
    await srv.deps.grants.revokeToken(extra.token);
    await srv.deps.store.purgeExpired();
    expect(await srv.deps.activity.list({ grant: extraGrant })).toHaveLength(1);
    srv.deps.clock.advance(90 * 86_400_000 + 1);
    await srv.deps.store.purgeExpired();
    expect(await srv.deps.activity.list({ grant: extraGrant })).toHaveLength(0);
  });
});
