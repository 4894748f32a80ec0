// The setup most MCP tool tests share: the harness servers, a test server, an SDK client with a
// write token for alice, and plain IMAP clients for alice and bob to check what the tools did.
import { afterAll, beforeAll } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { getHarness, type Harness } from "./harness.ts";
import { loginImap } from "./imap.ts";
import { connectClient, startTestServer, type TestServer } from "./mcp-client.ts";
import { issueTestGrant, testAccount } from "./token.ts";

export interface AliceSession {
  h: Harness;
  srv: TestServer;
  mcp: Client;
  grantId: string;
  imap: ImapFlow;
  bob: ImapFlow;
  close(): Promise<void>;
}

export async function aliceSession(): Promise<AliceSession> {
  const h = await getHarness();
  const srv = await startTestServer();
  const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
  const grantId = (await srv.deps.grants.findToken(grant.token))!.grantId;
  const mcp = await connectClient(srv.mcpUrl, grant.token);
  const [imap, bob] = await Promise.all([loginImap(h.dovecot, h.dovecot.users.alice), loginImap(h.dovecot, h.dovecot.users.bob)]);
  return {
    h, srv, mcp, grantId, imap, bob,
    async close() {
      await mcp.close();
      await Promise.all([imap.logout(), bob.logout()]);
      await srv.stop();
    },
  };
}

/** Registers the file's beforeAll/afterAll for an AliceSession; `use` receives it once it is up. */
export function aliceHooks(use: (s: AliceSession) => void): void {
  let session: AliceSession | undefined;
  beforeAll(async () => {
    session = await aliceSession();
    use(session);
  }, 30_000);
  afterAll(() => session?.close());
}
