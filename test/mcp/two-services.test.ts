// Two services in one process (two stores, two runtimes, as two tests or two embedders would build
// them) share nothing: revoking a token in one, or stopping one, leaves the other's credentials,
// IMAP connection and SMTP transport alone. Before the SMTP pool was an object of the runtime, its
// transports lived in a module-level map that any service's shutdown emptied.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
const servers: TestServer[] = [];
const clients: Client[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  h = await getHarness();
  for (let i = 0; i < 2; i++) {
    const srv = await startTestServer();
    const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
    servers.push(srv);
    tokens.push(grant.token);
    clients.push(await connectClient(srv.mcpUrl, grant.token));
  }
}, 30_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((s) => s.stop()));
});

/** Opens everything a token can hold: credentials in memory, an IMAP connection, an SMTP transport. */
async function useMailbox(i: number): Promise<void> {
  await callOk(clients[i]!, "get_recent_emails", { limit: 1 });
  await callOk(clients[i]!, "send_email", { to: "bob@example.test", subject: `two services ${i}`, text: "x" });
}

const holding = (srv: TestServer) => ({ credentials: srv.deps.runtime.mail.credentials.size, imap: srv.deps.imap.openCount, smtp: srv.deps.smtp.size });

describe("two services in one process", () => {
  test("revoking a token in one closes its connections there and nothing in the other", async () => {
    await useMailbox(0);
    await useMailbox(1);
    expect(holding(servers[0]!)).toEqual({ credentials: 1, imap: 1, smtp: 1 });
    expect(holding(servers[1]!)).toEqual({ credentials: 1, imap: 1, smtp: 1 });
    const res = await fetch(`${servers[0]!.baseUrl}/oauth/revoke`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tokens[0] }),
    });
    expect(res.status).toBe(200);
    expect(holding(servers[0]!)).toEqual({ credentials: 0, imap: 0, smtp: 0 });
    expect(holding(servers[1]!)).toEqual({ credentials: 1, imap: 1, smtp: 1 });
    await useMailbox(1); // and it keeps working on what it held
    expect(holding(servers[1]!)).toEqual({ credentials: 1, imap: 1, smtp: 1 });
  });

  test("each has its own content helper processes (HTML and PDF to text)", () => {
    const [a, b] = servers.map((s) => s.deps.runtime.mail.content);
    expect(a!.html).not.toBe(b!.html);
    expect(a!.pdf).not.toBe(b!.pdf);
  });

  test("stopping one service leaves the other's SMTP transport and IMAP connection open", async () => {
    const extra = await startTestServer();
    const grant = await issueTestGrant(extra.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
    const client = await connectClient(extra.mcpUrl, grant.token);
    await callOk(client, "send_email", { to: "bob@example.test", subject: "extra", text: "x" });
    expect(extra.deps.smtp.size).toBe(1);
    await client.close();
    await extra.stop();
    expect(extra.deps.smtp.size).toBe(0);
    expect(holding(servers[1]!)).toEqual({ credentials: 1, imap: 1, smtp: 1 });
  });
});
