// The 20 MB outgoing-attachment budget counted across a token's sends in flight
// (src/mcp/token-caps/send-budget.ts), through the real server and the SDK client: IMAP is the harness
// Dovecot, SMTP a server of this test that holds each message at DATA until the test lets it go.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SMTPServer } from "smtp-server";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

const MB = 1024 * 1024;
const big = Buffer.alloc(15 * MB, 0x5a).toString("base64");

/** An SMTP server whose DATA answers wait for release(); failNext makes the next DATA fail. */
async function startHeldSmtp() {
  let open!: () => void;
  const held = {
    port: 0, dataStarted: 0, failNext: false,
    gate: new Promise<void>((resolve) => (open = resolve)),
    release: () => open(),
  };
  const server = new SMTPServer({
    logger: false, authMethods: ["PLAIN", "LOGIN"], allowInsecureAuth: true, disabledCommands: ["STARTTLS"], disableReverseLookup: true,
    onAuth: (_a, _s, cb) => cb(null, { user: "alice" }),
    onData: (stream, _s, cb) => {
      held.dataStarted++;
      stream.resume();
      stream.on("end", async () => {
        if (held.failNext) {
          held.failNext = false;
          return cb(Object.assign(new Error("5.3.4 message refused (test)"), { responseCode: 554 }));
        }
        await held.gate;
        cb();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  held.port = (server.server.address() as { port: number }).port;
  return { held, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let h: Harness;
let srv: TestServer;
let smtp: Awaited<ReturnType<typeof startHeldSmtp>>;

beforeAll(async () => {
  h = await getHarness();
  smtp = await startHeldSmtp();
  srv = await startTestServer();
}, 30_000);
afterEach(() => smtp.held.release()); // never leave a message held for the next test
afterAll(async () => {
  await srv.stop();
  await smtp.stop();
});

async function newClient(): Promise<{ client: Client; token: string; tokenId: string }> {
  const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, smtp.held.port);
  const grant = await issueTestGrant(srv.deps, account);
  return { client: await connectClient(srv.mcpUrl, grant.token), ...grant };
}

const send15 = (c: Client, subject: string) =>
  call(c, "send_email", {
    to: h.dovecot.users.bob.email, subject, text: "see attachment",
    attachments: [{ filename: "data.bin", content_base64: big, content_type: "application/octet-stream" }],
  });

describe("attachments in flight per token", () => {
  test("a second 15 MB send of the same token is refused while the first runs; another token's is not; the budget comes back", async () => {
    const a = await newClient();
    const used = () => srv.deps.sendBudget.used(a.tokenId);
    const first = send15(a.client, "budget first");
    await until(() => smtp.held.dataStarted === 1, { what: "the first send to reach DATA", timeoutMs: 15_000 });
    expect(used()).toBe(15 * MB);

    // Same token, another session: refused at once, before anything goes to SMTP.
    const sameToken = await connectClient(srv.mcpUrl, a.token);
    const refused = await send15(sameToken, "budget second");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/another send_email on this connection is still sending 15\.0 MB of attachments.*15\.0 MB.*20\.0 MB/s);
    expect(smtp.held.dataStarted).toBe(1);

    const b = await newClient(); // a different token has its own 20 MB
    const other = send15(b.client, "budget other token");
    await until(() => smtp.held.dataStarted === 2, { what: "the other token's send to reach DATA", timeoutMs: 15_000 });

    smtp.held.release();
    for (const res of await Promise.all([first, other])) expect(res.isError).toBeFalsy();
    expect(used()).toBe(0);
    expect((await send15(sameToken, "budget after")).isError).toBeFalsy();
    await Promise.all([a.client.close(), b.client.close(), sameToken.close()]);
  });

  test("a failed send gives its share back", async () => {
    const a = await newClient();
    smtp.held.failNext = true;
    const res = await send15(a.client, "budget failing");
    expect(res.isError).toBe(true);
    expect(srv.deps.sendBudget.used(a.tokenId)).toBe(0);
    expect((await send15(a.client, "budget after failure")).isError).toBeFalsy();
    await a.client.close();
  });
});
