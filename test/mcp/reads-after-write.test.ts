// A read on a folder that a write left selected read-write runs there without an EXAMINE
// (src/mail/imap/mailbox.ts): the server would then not refuse a flag change, so what keeps \Seen as
// it was is that every read fetches with BODY.PEEK. Each read tool, after a write on its folder.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import { aliceServer } from "../support/alice-server.ts";
import { findBySubject } from "../support/imap.ts";
import { plainText, withAttachment } from "../support/mail-fixtures.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { issueTestGrant } from "../support/token.ts";

const fx = aliceServer<Client>();
const tag = () => randomBytes(4).toString("hex");

describe("reads after a write on the same folder", () => {
  test("get_recent_emails, search_emails, get_email, get_attachment, get_thread leave \\Seen unset", async () => {
    const folder = `AfterWrite-${tag()}`;
    const subject = `after write ${tag()}`;
    await fx.imap.mailboxCreate(folder);
    for (const raw of [plainText({ subject: `${subject} text` }), withAttachment({ subject: `${subject} attached` }), plainText({ subject: `${subject} written` })]) {
      await fx.h.dovecot.deliver("alice", raw, folder);
    }
    const [text] = await findBySubject(fx.imap, folder, `${subject} text`);
    const [attached] = await findBySubject(fx.imap, folder, `${subject} attached`);
    const [written] = await findBySubject(fx.imap, folder, `${subject} written`);
    const client = await connectClient(fx.srv.mcpUrl, (await issueTestGrant(fx.srv.deps, fx.account())).token);
    fx.open.push(client);

    const reads: Array<[string, Record<string, unknown>]> = [
      ["get_recent_emails", { folder, limit: 10 }],
      ["search_emails", { folder, subject }],
      ["get_email", { folder, uid: text!.uid }],
      ["get_email", { folder, uid: attached!.uid }],
      ["get_attachment", { folder, uid: attached!.uid, part: "2" }],
      ["get_thread", { folder, uid: text!.uid }],
    ];
    for (const [tool, args] of reads) {
      // The write selects the folder read-write on the token's connection; the read follows on it.
      await callOk(client, "flag_email", { folder, uids: [written!.uid], flagged: true });
      await callOk(client, tool, args);
    }
    const after = await findBySubject(fx.imap, folder, subject);
    expect(after.map((m) => [m.uid, m.flags.has("\\Seen")])).toEqual([[text!.uid, false], [attached!.uid, false], [written!.uid, false]]);
    expect(after.find((m) => m.uid === written!.uid)!.flags.has("\\Flagged")).toBe(true);
  });
});
