// Consent the model cannot manufacture on Gmail (issue 41, item 1): a folder is a label there, so
// `label_email` with the Sent folder's name puts a hostile mail into "[Gmail]/Sent Mail" (a new UID
// of that folder, as Gmail does; the scripted server, test/support/fake-gmail-sent.ts). Before the
// grant's mark, that made the stranger the mail is addressed to "known": a dry run said it would not
// ask. A message in Sent Mail from before the connect still counts, so the fake's Sent is really read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { verifyLogin } from "../../../src/mail/imap/verify.ts";
import { USERS } from "../../support/dovecot.ts";
import { gmailState, type GmailState } from "../../support/fake-gmail.ts";
import { SENT_PATH } from "../../support/fake-gmail-sent.ts";
import { startFakeImap, type FakeImap } from "../../support/fake-imap.ts";
import { call, callOk, connectClient, startTestServer, type TestServer } from "../../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";

const ATTACKER = "attacker@evil.example";
const KNOWN = "colleague@example.net";
let srv: TestServer;
let fake: FakeImap;
let gmail: GmailState;
let mcp: Client;

beforeAll(async () => {
  gmail = gmailState();
  gmail.to.set(1, ATTACKER); // the hostile mail, in INBOX
  gmail.to.set(3, KNOWN);
  gmail.sent.set(gmail.sentUidNext++, 3); // written to before the grant
  fake = await startFakeImap(() => ({ gmail }));
  srv = await startTestServer();
  const account = testAccount(USERS.alice, fake);
  const proof = await verifyLogin(account);
  if (!proof) throw new Error("verifyLogin returned no proof");
  const { token, grantId } = await issueTestGrant(srv.deps, account, "email:read email:write", undefined, "new_recipients");
  await srv.deps.store.sentMarks.keepFirst(grantId, proof.sentMark);
  mcp = await connectClient(srv.mcpUrl, token);
});
afterAll(async () => {
  await mcp?.close();
  await srv?.stop();
  await fake?.stop();
});

const preview = async (to: string) => (await call(mcp, "send_email", { to, subject: "dry", text: "x", dry_run: true })).structuredContent;

describe("Gmail: a label that files a hostile mail into Sent Mail", () => {
  test("a recipient in Sent Mail from before the connect is known", async () => {
    expect(await preview(KNOWN)).toMatchObject({ status: "dry_run", preview: { would_ask: false } });
  });

  test(`label_email add "${SENT_PATH}" on the hostile mail, then a send to its address: still asks`, async () => {
    await callOk(mcp, "label_email", { uids: [1], add: [SENT_PATH] });
    expect([...gmail.sent.values()]).toContain(1); // it is in Sent Mail now, under a new UID
    expect(await preview(ATTACKER)).toMatchObject({ status: "dry_run", preview: { would_ask: true, new_recipients: [ATTACKER] } });
  });
});
