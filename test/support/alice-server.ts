// The setup several MCP test files share: the harness (Dovecot, SMTP receiver), a test server, and an
// IMAP client of alice's to look at what the tools did. Started before the file's tests; after them,
// the MCP clients the tests opened (pushed on `open`) are closed, then the IMAP client and the server.
import { afterAll, beforeAll } from "bun:test";
import type { ImapFlow } from "imapflow";
import type { MailAccount } from "../../src/mail/account.ts";
import { getHarness, type Harness } from "./harness.ts";
import { loginImap } from "./imap.ts";
import { startTestServer, type TestServer } from "./mcp-client.ts";
import { testAccount } from "./token.ts";

type Closable = { close(): Promise<void> };

export interface AliceServer<C extends Closable = Closable> {
  h: Harness;
  srv: TestServer;
  imap: ImapFlow;
  /** Clients to close once the file's tests are done. */
  open: C[];
  /** alice's account on the harness's Dovecot and SMTP receiver. */
  account(): MailAccount;
}

/** Registers the file's beforeAll/afterAll; the fields are set once beforeAll has run. */
export function aliceServer<C extends Closable = Closable>(): AliceServer<C> {
  const fx = {
    open: [],
    account: () => testAccount(fx.h.dovecot.users.alice, { host: "localhost", port: fx.h.dovecot.port }, fx.h.smtp.port),
  } as unknown as AliceServer<C>;
  beforeAll(async () => {
    fx.h = await getHarness();
    fx.srv = await startTestServer();
    fx.imap = await loginImap(fx.h.dovecot, fx.h.dovecot.users.alice);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(fx.open.map((c) => c.close().catch(() => {})));
    await fx.imap?.logout();
    await fx.srv?.stop();
  });
  return fx;
}
