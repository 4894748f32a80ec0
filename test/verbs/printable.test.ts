// The owner's terminal must not obey strings apps and senders wrote (issue 19, item 6): `activity` and
// `grants` print escape sequences, C1 and bidi controls as visible escapes; `--json` keeps the values
// exact. Rows are written through the real store (a grant with its sealed label, activity rows).
import { describe, expect, test } from "bun:test";
import { activityVerb } from "../../src/verbs/activity.ts";
import { grantsVerb, revokeVerb } from "../../src/verbs/grants.ts";
import { printable } from "../../src/verbs/printable.ts";
import { encodeAccount } from "../../src/mail/account.ts";
import { testDeps } from "../support/app.ts";
import { testAccount } from "../support/token.ts";
import { USERS } from "../support/dovecot.ts";

// What the review used: cursor up + erase line (hides the line above), an OSC title, a C1 CSI (0x9B),
// a right-to-left override, a zero-width space and a bell.
const ERASE_ABOVE = "\x1b[1A\x1b[2K";
const HOSTILE = `Archive${ERASE_ABOVE}\x1b]0;pwned\x07\x9b2J\u202eevil\u200b\r\nforged line`;
/** Anything a terminal acts on or shows as nothing. */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

async function setup() {
  const deps = testDeps();
  const { requestId } = await deps.pending.create(
    { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null }, 600_000);
  const pending = (await deps.pending.get(requestId))!;
  const account = testAccount(USERS.alice, { host: "localhost", port: 1 });
  const label = { email: `\x1b[31malice${ERASE_ABOVE}@example.test`, host: `imap\u202e.example.test` };
  await deps.grants.issueCode("c".repeat(48), pending, encodeAccount(account), 300_000, null, { clientId: deps.config.clientId, label });
  const record = (await deps.grants.findCode("c".repeat(48)))!;
  await deps.grants.redeemCode("c".repeat(48), record, "a".repeat(64), "email:read email:write", 86_400_000);
  const grantId = record.grantId;
  await deps.activity.record({ grantId, tool: "send_email", outcome: "ok", details: { recipients: ["bob@example.test"], folder: "Sent" } });
  deps.clock.advance(1000);
  await deps.activity.record({ grantId, tool: "move_email", outcome: "error", details: { folder: HOSTILE, destination: HOSTILE, error: `no such folder ${HOSTILE}` } });
  return { deps, label };
}

async function run(verb: (out: (t: string) => void) => Promise<void>): Promise<string> {
  let text = "";
  await verb((t) => { text += t; });
  return text;
}

describe("text output is printable", () => {
  test("activity: a later call's folder name cannot erase the send_email line above it", async () => {
    const { deps } = await setup();
    const out = await run((o) => activityVerb(deps.store, deps.config, { json: false }, o));
    expect(out).not.toMatch(RAW);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(2); // the CR LF inside the folder name did not start a line of its own
    expect(lines[0]).toContain("send_email");
    expect(lines[1]).toContain("Archive\\x1b[1A\\x1b[2K\\x1b]0;pwned\\x07\\x9b2J\\u202eevil\\u200b\\x0d\\x0aforged line");
  });

  test("grants and revoke: the mailbox label's escapes are shown, not obeyed", async () => {
    const { deps } = await setup();
    const out = await run((o) => grantsVerb(deps.store, deps.config, false, o));
    expect(out).not.toMatch(RAW);
    expect(out).toContain("\\x1b[31malice\\x1b[1A\\x1b[2K@example.test on imap\\u202e.example.test");
    const revoked = await run((o) => revokeVerb(deps.store, deps.config, out.match(/^([0-9a-f]{8})  /m)![1]!, "mailbox-mcp", o));
    expect(revoked).not.toMatch(RAW);
    expect(revoked).toContain("\\x1b[31malice");
  });

  test("--json keeps every value exact", async () => {
    const { deps, label } = await setup();
    const grants = JSON.parse(await run((o) => grantsVerb(deps.store, deps.config, true, o)));
    expect(grants[0]).toMatchObject({ email: label.email, mail_host: label.host });
    const rows = JSON.parse(await run((o) => activityVerb(deps.store, deps.config, { json: true }, o)));
    expect(rows[1].details.folder).toBe(HOSTILE);
  });
});

test("printable: controls, C1, bidi, invisible and separators escaped; ordinary text, accents and emoji kept", () => {
  expect(printable("Entwürfe/日本語 👋 a\tb")).toBe("Entwürfe/日本語 👋 a\\x09b");
  expect(printable("\x00\x7f\x85\u061c\u2066\u2069\u2028\u2029\ufeff\u3164\ufe0f\u{e0041}\ud800")).toBe(
    "\\x00\\x7f\\x85\\u061c\\u2066\\u2069\\u2028\\u2029\\ufeff\\u3164\\ufe0f\\u{e0041}\\ud800");
});
