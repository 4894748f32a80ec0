// Revocation against a send already running (issue 19, item 8): once this server knows a token is
// revoked, that token's message must not reach SMTP DATA. Before, the client was told "revoked" and
// the message arrived 178 ms later: closing the pooled transport let a delivery in progress finish.
// The real SMTP receiver holds the RCPT TO answer, so the revocation lands while the client waits
// just before DATA.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

let h: Harness;
let srv: TestServer;

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
}, 30_000);
afterAll(async () => {
  h.smtp.reset();
  await srv?.stop();
});

const account = () => testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);

test("revoked while the SMTP server holds RCPT TO: the client is told, and DATA never comes", async () => {
  const { token } = await issueTestGrant(srv.deps, account());
  const client = await connectClient(srv.mcpUrl, token);
  const before = { data: h.smtp.dataCommands, messages: h.smtp.messages.length, closed: h.smtp.closedConnections };
  const hold = h.smtp.holdRcpt();
  const sending = call(client, "send_email", { to: "bob@example.test", subject: "must not arrive", text: "x" })
    .then((r) => textOf(r), (e: Error) => e.message);
  await until(hold.held, { what: "the send to wait for the RCPT TO answer", timeoutMs: 10_000 });

  const revoked = await fetch(`${srv.baseUrl}/oauth/revoke`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
  });
  expect(revoked.status).toBe(200);
  expect(await sending).toMatch(/revoked/);
  // The receiver now answers RCPT TO; a transport still delivering would go on to DATA.
  hold.release();
  await until(() => h.smtp.closedConnections > before.closed, { what: "the SMTP connection to end" });
  expect(h.smtp.dataCommands).toBe(before.data);
  expect(h.smtp.messages.length).toBe(before.messages);
  await client.close().catch(() => {});
}, 30_000);
