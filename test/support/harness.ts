// One Dovecot + one SMTP server per `bun test` run, started lazily by the first test that
// needs them (unit tests stay fast), stopped by the preload's global afterAll.
import type { DovecotServer } from "./dovecot.ts";
import type { SmtpServer } from "./smtp.ts";

export interface Harness {
  dovecot: DovecotServer;
  smtp: SmtpServer;
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
  const [{ startDovecot }, { startSmtp }] = await Promise.all([import("./dovecot.ts"), import("./smtp.ts")]);
  const dovecot = await startDovecot();
  try {
    return { dovecot, smtp: await startSmtp(dovecot) };
  } catch (err) {
    await dovecot.stop();
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
}
