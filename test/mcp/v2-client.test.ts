// The SDK's v2 client against the real server and the harness Dovecot + SMTP, in each negotiation
// mode (test/support/mcp-client-v2.ts): legacy (2025-11-25, a session), pinned to 2026-07-28 and
// auto (both serverless of sessions: server/discover, then one POST per request). Each mode lists the
// ten tools, reads and writes mail, is refused a write tool without email:write (HTTP 403
// insufficient_scope), and is refused everything once its token is revoked.
import { describe, expect, test } from "bun:test";
import { InsufficientScopeError, SdkHttpError, type Client } from "@modelcontextprotocol/client";
import { randomBytes } from "node:crypto";
import { findBySubject } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { callOkV2, connectV2, MODERN, MODES, sessionIdOf } from "../support/mcp-client-v2.ts";
import { issueTestGrant } from "../support/token.ts";
import { LISTED_TOOLS } from "../../src/mcp/tools/index.ts";
import { aliceServer } from "../support/alice-server.ts";

const fx = aliceServer<Client>();
const tag = () => randomBytes(4).toString("hex");

async function connect(token: string, mode: (typeof MODES)[number]["mode"]): Promise<Client> {
  const client = await connectV2(fx.srv.mcpUrl, token, mode);
  fx.open.push(client);
  return client;
}

for (const { name, mode } of MODES) {
  const modern = name !== "legacy";
  describe(`v2 client, ${name}`, () => {
    test(`negotiates ${modern ? MODERN + " without a session" : "2025-11-25 with a session"}; lists every tool`, async () => {
      const client = await connect((await issueTestGrant(fx.srv.deps, fx.account())).token, mode);
      if (modern) {
        expect(client.getDiscoverResult()).toBeDefined();
        expect(sessionIdOf(client)).toBeUndefined();
      } else {
        expect(client.getDiscoverResult()).toBeUndefined();
        expect(sessionIdOf(client)).toMatch(/^[0-9a-f-]{36}$/);
      }
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(LISTED_TOOLS.map((t) => t.name).sort());
      expect(tools.every((t) => t.outputSchema && t.annotations)).toBe(true);
    });

    test("reads: get_recent_emails and get_email on seeded mail", async () => {
      const folder = `V2-${tag()}`;
      await fx.imap.mailboxCreate(folder);
      const subject = `v2 ${name} ${tag()}`;
      await fx.h.dovecot.deliver("alice", plainText({ subject }, "Hello from the v2 test."), folder);
      const client = await connect((await issueTestGrant(fx.srv.deps, fx.account())).token, mode);
      const recent = await callOkV2(client, "get_recent_emails", { folder, limit: 5 });
      expect(recent.emails.map((e: { subject: string }) => e.subject)).toEqual([subject]);
      const mail = await callOkV2(client, "get_email", { folder, uid: recent.emails[0].uid });
      expect(mail.body_text).toContain("Hello from the v2 test.");
      expect((await callOkV2(client, "list_mailboxes")).mailboxes.some((m: { path: string }) => m.path === folder)).toBe(true);
    });

    test("writes: draft_email lands in Drafts, send_email goes out and to Sent", async () => {
      const client = await connect((await issueTestGrant(fx.srv.deps, fx.account())).token, mode);
      const subject = `v2 write ${name} ${tag()}`;
      const draft = await callOkV2(client, "draft_email", { to: "bob@example.test", subject, text: "draft" });
      expect(draft.folder).toBe("Drafts");
      expect(await findBySubject(fx.imap, "Drafts", subject)).toHaveLength(1);
      const sent = await callOkV2(client, "send_email", { to: "bob@example.test", subject: `${subject} sent`, text: "sent" });
      expect(sent.accepted).toEqual(["bob@example.test"]);
      expect(await findBySubject(fx.imap, "Sent", `${subject} sent`)).toHaveLength(1);
    });

    test("a token without email:write: a write tool is refused with HTTP 403 insufficient_scope, reads work", async () => {
      const client = await connect((await issueTestGrant(fx.srv.deps, fx.account(), "email:read")).token, mode);
      const subject = `v2 scope ${name} ${tag()}`;
      const err = await client.callTool({ name: "draft_email", arguments: { to: "bob@example.test", subject, text: "x" } })
        .then(() => null, (e: Error) => e);
      // The client read the 403's WWW-Authenticate challenge: it would ask for the wider grant.
      expect(err).toBeInstanceOf(InsufficientScopeError);
      expect(err!.message).toContain('required "email:read email:write"');
      expect(await findBySubject(fx.imap, "Drafts", subject)).toEqual([]);
      expect((await callOkV2(client, "list_providers")).providers.length).toBeGreaterThan(5);
    });

    test("a revoked token: the next call is refused (401)", async () => {
      const grant = await issueTestGrant(fx.srv.deps, fx.account());
      const client = await connect(grant.token, mode);
      await callOkV2(client, "list_providers");
      (await fx.srv.deps.grants.revokeToken(grant.token));
      await fx.srv.deps.events.emitRevoked(grant.tokenId);
      const err = await client.callTool({ name: "list_providers", arguments: {} }).then(() => null, (e: Error) => e);
      expect(err).toBeInstanceOf(SdkHttpError);
      expect((err as SdkHttpError).status).toBe(401);
      expect(err!.message).toContain("invalid_token");
    });
  });
}
