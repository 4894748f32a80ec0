// `bun run test:unit` (scripts/test-unit.ts) runs only the tests that need no outside server, and sets
// MAILBOX_TEST_UNIT=1. Every helper that starts one (Dovecot, the SMTP server, Postgres, Chromium,
// MCP Inspector, haproxy) calls refuseInUnitRun() first: a test the selection took for a unit test
// but that needs a server fails at once, naming it, instead of quietly making the fast loop slow.

export const UNIT_RUN_ENV = "MAILBOX_TEST_UNIT";

export function refuseInUnitRun(server: string): void {
  if (process.env[UNIT_RUN_ENV] !== "1") return;
  throw new Error(
    `${server} is not started in the unit run (bun run test:unit): a test that needs it is not a unit test. ` +
      "Start it through one of the helpers scripts/test-unit.ts lists as STARTERS, so that the unit run " +
      "leaves the test to `bun run test`.",
  );
}
