// Which grants `mailbox-mcp revoke <arg>` means: all of an address, or the one a unique id prefix names.
import { describe, expect, test } from "bun:test";
import type { GrantSummary } from "../../src/store/grant-admin.ts";
import { formatGrants, pickGrants } from "../../src/verbs/grants.ts";
import { VerbError } from "../../src/verbs/verb-args.ts";

const g = (id: string, email: string | null): GrantSummary => ({
  id: id.padEnd(32, "0"), clientId: "c", clientName: null, redirectUri: null, scope: "email:read", sendPolicy: "never", createdAt: 0, lastUsedAt: null, expiresAt: 1,
  label: email ? { email, host: "imap.example.test" } : null, signInLostAt: null,
});
const grants = [g("3f9a1c2e", "Alice@Example.test"), g("3f9a1d00", "bob@example.test"), g("77aa", null)];
const pick = (what: string) => pickGrants(grants, what, "mailbox-mcp").map((x) => x.id.slice(0, 8));
const failure = (what: string) => {
  try {
    pick(what);
  } catch (err) {
    if (err instanceof VerbError) return err.message;
  }
  throw new Error("no error");
};

describe("pickGrants", () => {
  test("an address, any case, picks all its grants; an id prefix of 4+ characters its one grant", () => {
    expect(pick("alice@example.TEST")).toEqual(["3f9a1c2e"]);
    expect(pick("3F9A1C")).toEqual(["3f9a1c2e"]);
    expect(pick("77aa")).toEqual(["77aa0000"]);
  });

  test("ambiguous, unknown, too short or malformed: an error saying what to do", () => {
    expect(failure("3f9a")).toBe("3f9a matches 2 grants (3f9a1c2e0000, 3f9a1d000000): give more of the id.");
    expect(failure("abcdef")).toBe("no live grant has the id abcdef. List them with: mailbox-mcp grants");
    expect(failure("3f9")).toContain("neither a grant id (at least 4 hex characters) nor an email address");
    expect(failure("carol@example.test")).toBe("no live grant for carol@example.test. List them with: mailbox-mcp grants");
  });
});

describe("formatGrants", () => {
  test("shows the scope in words, and the mailbox", () => {
    const config = { clientId: "c" } as never;
    const text = formatGrants([g("3f9a1c2e", "alice@example.test"), { ...g("77aa", null), scope: "email:read email:write" }], config);
    expect(text).toContain("3f9a1c2e  alice@example.test on imap.example.test\n  client     c (this server's OAuth client)\n  scope      email:read (read only)");
    expect(text).toContain("scope      email:read email:write (read and write)");
    expect(text).toContain("77aa0000  (mailbox not recorded: connected before this version)");
  });

  test("shows the send policy in words; a read-only grant never sends", () => {
    const config = { clientId: "c" } as never;
    const rw = (policy: GrantSummary["sendPolicy"]) => ({ ...g("5e5e", "carol@example.test"), scope: "email:read email:write", sendPolicy: policy });
    expect(formatGrants([rw("new_recipients")], config)).toContain("  sending    new_recipients (ask before writing to a new recipient)\n");
    expect(formatGrants([rw("direct")], config)).toContain("  sending    direct (send without asking)\n");
    expect(formatGrants([{ ...g("3f9a1c2e", "a@x.test"), sendPolicy: "direct" }], config)).toContain("  sending    never (read only)\n");
  });

  test("a registered client by its self-declared name and id", () => {
    const reg = { ...g("5e5e", "carol@example.test"), clientId: "dyn-abc", clientName: "Claude Code", redirectUri: "http://localhost:33418/callback" };
    expect(formatGrants([reg], { clientId: "c" } as never)).toContain('client     "Claude Code" (self-declared name), dyn-abc, signed in through localhost:33418');
  });
});
