// Revocation against a send already running (issue 19, item 8): once this server knows a token is
// revoked, that token's message must not reach the SMTP server. Before, the client was told "revoked"
// and the message arrived 178 ms later: closing the pooled transport let a delivery in progress finish.
// The real SMTP receiver holds its answer to RCPT TO, so the revocation lands while the client waits
// for the envelope's replies. nodemailer pipelines (RFC 2920) MAIL FROM, RCPT TO and the DATA command
// in one write before any reply, so the DATA command itself may be on the wire already; what must never
// follow is the message: not a byte of it, and no final dot, so nothing is delivered.
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

test("revoked while the SMTP server holds RCPT TO: the client is told, and no byte of the message follows", async () => {
  const { token } = await issueTestGrant(srv.deps, account());
  const client = await connectClient(srv.mcpUrl, token);
  const to = `revoke-${crypto.randomUUID()}@example.test`;
  const hold = h.smtp.holdRcpt(to);
  const sending = call(client, "send_email", { to, subject: "must not arrive", text: "x" })
    .then((r) => textOf(r), (e: Error) => e.message);
  await until(hold.held, { what: "the send to wait for the RCPT TO answer", timeoutMs: 10_000 });

  const revoked = await fetch(`${srv.baseUrl}/oauth/revoke`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
  });
  expect(revoked.status).toBe(200);
  expect(await sending).toMatch(/revoked/);
  // The receiver now answers RCPT TO; a transport still delivering would go on to DATA.
  hold.release();
  await until(hold.ended, { what: "that SMTP connection to end" });
  // Pipelined, the DATA command was sent with the envelope, before the revocation; the message never was.
  expect(h.smtp.dataCommands.filter((d) => d.to.includes(to) && (d.bytes > 0 || d.complete))).toEqual([]);
  expect(h.smtp.messages.filter((m) => m.to.includes(to))).toEqual([]);
  await client.close().catch(() => {});
}, 30_000);
