// The credential cache (src/mail/credentials.ts): one unseal per token while it is in use, nothing
// kept for a revoked or idle token, and a renewal (OAuth access tokens) made once however many calls
// find the account due.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { passwordAuth, type MailAccount } from "../../src/mail/account.ts";
import { Credentials } from "../../src/mail/credentials.ts";
import { MailError } from "../../src/mail/errors.ts";

const endpoint = { host: "mail.example.org", port: 993, security: "tls" as const };
const account = (auth: MailAccount["auth"]): MailAccount =>
  ({ provider: "custom", email: "a@example.org", username: "a@example.org", auth, imap: endpoint, smtp: endpoint, providerSavesSent: false });

function counted(result: MailAccount | null = account(passwordAuth("pw"))) {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { calls, release, unseal: async (token: string) => { calls.push(token); await gate; return result; } };
}

describe("Credentials", () => {
  test("calls arriving together share one unseal; later calls reuse it", async () => {
    const u = counted();
    const creds = new Credentials(u.unseal, manualClock(0));
    const src = creds.for("id-1", "token-1");
    const both = Promise.all([src.account(), src.account()]);
    u.release();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(await src.account()).toBe(a);
    expect(u.calls).toEqual(["token-1"]);
  });

  test("a token whose grant is gone is an auth error, and nothing is kept", async () => {
    const u = counted(null);
    u.release();
    const creds = new Credentials(u.unseal, manualClock(0));
    const err = await creds.for("id-1", "t").account().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).kind).toBe("auth");
    expect(creds.size).toBe(0);
  });

  test("forget (revocation) and sweep (idle) drop the account; the next call unseals again", async () => {
    const u = counted();
    u.release();
    const clock = manualClock(0);
    const creds = new Credentials(u.unseal, clock, { idleMs: 1000 });
    await creds.for("id-1", "t").account();
    creds.forget("id-1");
    expect(creds.size).toBe(0);
    await creds.for("id-1", "t").account();
    clock.advance(999);
    creds.sweep();
    expect(creds.size).toBe(1);
    clock.advance(1);
    creds.sweep();
    expect(creds.size).toBe(0);
    expect(u.calls.length).toBe(2);
  });

  test("an account due for renewal is renewed once for every caller, then used until due again", async () => {
    const u = counted(account({ kind: "oauth2", accessToken: "old" }));
    u.release();
    const clock = manualClock(0);
    const renewals: string[] = [];
    let next = 1;
    const expiry = new Map<string, number>([["old", 100]]);
    const creds = new Credentials(u.unseal, clock, {
      renewAt: (a) => (a.auth.kind === "oauth2" ? expiry.get(a.auth.accessToken)! : null),
      renew: async (_token, a) => {
        renewals.push(a.auth.kind === "oauth2" ? a.auth.accessToken : "");
        const fresh = `new-${next++}`;
        expiry.set(fresh, clock() + 100);
        return account({ kind: "oauth2", accessToken: fresh });
      },
    });
    const src = creds.for("id-1", "t");
    expect((await src.account()).auth).toEqual({ kind: "oauth2", accessToken: "old" });
    clock.advance(100);
    const got = await Promise.all([src.account(), src.account(), src.account()]);
    expect(got.map((a) => a.auth)).toEqual(Array(3).fill({ kind: "oauth2", accessToken: "new-1" }));
    expect((await src.account()).auth).toEqual({ kind: "oauth2", accessToken: "new-1" });
    expect(renewals).toEqual(["old"]);
  });

  test("a password account is never renewed", async () => {
    const u = counted();
    u.release();
    const creds = new Credentials(u.unseal, manualClock(0), { renew: async () => { throw new Error("must not renew"); } });
    await creds.for("id-1", "t").account();
    expect((await creds.for("id-1", "t").account()).auth.kind).toBe("password");
  });
});
