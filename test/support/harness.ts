// One Dovecot + one SMTP server per `bun test` run, started lazily by the first test that
// needs them (unit tests stay fast), stopped by the preload's global afterAll.
import type { DovecotServer } from "./dovecot.ts";
import type { FakeOAuthProvider } from "./fake-oauth/server.ts";
import type { SmtpServer } from "./smtp.ts";

export interface Harness {
  dovecot: DovecotServer;
  smtp: SmtpServer;
  /** The fake OAuth provider whose tokens Dovecot (oauth2 passdb) and the SMTP server (XOAUTH2) accept. */
  oauth: FakeOAuthProvider;
}

let started: Promise<Harness> | undefined;

/**
 * Starts the servers on first call; later calls share them. A failed start is remembered,
 * so every later test fails fast with the same message instead of waiting again.
 */
export function getHarness(): Promise<Harness> {
  return (started ??= start());
}

async function start(): Promise<Harness> {
  // Imported here, not at the top, so the preload does not load imapflow/smtp-server for unit tests.
  const [{ startDovecot }, { startSmtp }, { startFakeOAuth }] = await Promise.all([
    import("./dovecot.ts"), import("./smtp.ts"), import("./fake-oauth/server.ts"),
  ]);
  const oauth = startFakeOAuth();
  let dovecot: DovecotServer | undefined;
  try {
    dovecot = await startDovecot({ oauth2IntrospectionUrl: oauth.introspectionUrl });
    return { dovecot, smtp: await startSmtp(dovecot, oauth), oauth };
  } catch (err) {
    await dovecot?.stop();
    oauth.stop();
    throw err;
  }
}

/** Graceful stop (~1.1 s, Dovecot's own shutdown); a no-op if nothing was started. */
export async function stopHarness(): Promise<void> {
  const pending = started;
  started = undefined;
  const h = await pending?.catch(() => undefined);
  if (!h) return;
  await h.smtp.stop();
  await h.dovecot.stop();
  h.oauth.stop();
}
