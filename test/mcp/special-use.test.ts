// Special-use names in folder arguments through the SDK client on the harness Dovecot (which marks
// Drafts, Sent, Trash, Archive and Junk, RFC 6154): results and the activity log name the real
// paths; a use the mailbox lacks is an error that lists its folders.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { findBySubject, loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow;
let grantId: string;

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
  grantId = (await srv.deps.grants.findToken(grant.token))!.grantId;
  mcp = await connectClient(srv.mcpUrl, grant.token);
  imap = await loginImap(h.dovecot, h.dovecot.users.alice);
}, 30_000);
afterAll(async () => {
  await mcp.close();
  await imap.logout();
  await srv.stop();
});

describe("special-use folder names", () => {
  test("reading \\Sent lists the Sent folder and says so by its path", async () => {
    const subject = `special-sent ${randomBytes(4).toString("hex")}`;
    await imap.append("Sent", plainText({ subject }), ["\\Seen"]);
    const page = await callOk(mcp, "get_recent_emails", { folder: "\\Sent", limit: 5 });
    expect(page.folder).toBe("Sent");
    expect(page.emails.some((e: { subject: string }) => e.subject === subject)).toBe(true);
    expect((await callOk(mcp, "search_emails", { folder: "\\sent", subject })).folder).toBe("Sent");
  });

  test("moving to \\Archive and marking there: real paths in results and in the activity log", async () => {
    const subject = `special-move ${randomBytes(4).toString("hex")}`;
    await imap.append("INBOX", plainText({ subject }));
    const [msg] = await findBySubject(imap, "INBOX", subject);
    const moved = await callOk(mcp, "move_email", { folder: "\\Inbox", uids: [msg!.uid], destination: "\\\\Archive" });
    expect(moved).toMatchObject({ from: "INBOX", to: "Archive" });
    const newUid = moved.moved[0].new_uid as number;
    expect((await findBySubject(imap, "Archive", subject)).map((m) => m.uid)).toEqual([newUid]);
    expect(await callOk(mcp, "mark_as_read", { folder: "\\Archive", uids: [newUid] })).toEqual({ folder: "Archive", updated: 1 });
    const rows = await srv.deps.activity.list({ grant: grantId });
    const byTool = (tool: string) => rows.find((r) => r.tool === tool)!.details;
    expect(byTool("move_email")).toMatchObject({ folder: "INBOX", destination: "Archive" });
    expect(byTool("mark_as_read")).toMatchObject({ folder: "Archive" });
  });

  test("a use this mailbox has no folder for: an error listing the folders, nothing done", async () => {
    const res = await call(mcp, "get_recent_emails", { folder: "\\All" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/no folder marked \\All.*Existing folders: .*Archive/);
  });
});
