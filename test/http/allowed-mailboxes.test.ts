// Whose mailboxes may be connected (MAILBOX_MCP_ALLOWED_MAILBOXES; issue 19, item 3: with open
// registration a stranger registered a client, connected a mailbox on a mail server they ran, and got
// a token). The list is matched against what a mail server verified — the login it accepted, the host
// connected to — never the address typed as a label, and a server the visitor typed in vouches for no
// address. The harness Dovecot plays the stranger's server: it accepts alice@example.test.
import { beforeAll, describe, expect, test } from "bun:test";
import { hostAllowed, mailboxAllowed, parseAllowedMailboxes, type AllowedMailboxes } from "../../src/allowed-mailboxes.ts";
import { verifyLogin } from "../../src/mail/imap/verify.ts";
import type { MailAccount } from "../../src/mail/account.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { testDeps } from "../support/app.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, type Handler } from "../oauth/flow.ts";
import { LOOPBACK, registerOk } from "../oauth/register-flow.ts";

const list = (value: string) => parseAllowedMailboxes(value) as AllowedMailboxes;

let h: Harness;
beforeAll(async () => { h = await getHarness(); }, 30_000);

describe("the list", () => {
  test("addresses, @domains and hosts, case-folded; * alone", () => {
    const l = list(" Me@Example.COM, @Example.org ,IMAP.example.net., [::1]");
    expect(l).toEqual({
      anyone: false, addresses: new Set(["me@example.com"]), domains: new Set(["example.org"]), hosts: new Set(["imap.example.net", "::1"]),
    });
    expect(list("*")).toEqual({ anyone: true });
  });

  test.each([["", "is empty"], ["*,me@example.com", "give it alone"], ["@", "is neither"], ["a b@example.com", "is neither"],
    ["me@", "is neither"], ["http://mail.example.com", "is neither"]])("%p is refused (%s)", (value, problem) => {
    expect(parseAllowedMailboxes(value)).toContain(problem);
  });

  const operator = (login: string, imapHost = "imap.gmail.com") => ({ login, imapHost, serverChosenBy: "operator" as const });
  const visitor = (login: string, imapHost = "mail.evil.example") => ({ login, imapHost, serverChosenBy: "visitor" as const });

  test("an address or @domain counts only as verified by a server the operator chose", () => {
    const l = list("me@example.com,@example.org");
    expect(mailboxAllowed(l, operator("ME@example.com"))).toBe(true);
    expect(mailboxAllowed(l, operator("anyone@example.org"))).toBe(true);
    expect(mailboxAllowed(l, operator("x@sub.example.org"))).toBe(false); // the domain exactly
    expect(mailboxAllowed(l, operator("you@example.com"))).toBe(false);
    expect(mailboxAllowed(l, operator("me"))).toBe(false); // a login that is not an address
    expect(mailboxAllowed(l, visitor("me@example.com"))).toBe(false); // the stranger's server says so: worth nothing
  });

  test("a host counts whoever chose it; * and an unset list allow anyone", () => {
    const l = list("mail.example.net");
    expect(mailboxAllowed(l, visitor("whoever", "MAIL.example.net"))).toBe(true);
    expect(hostAllowed(l, "mail.evil.example")).toBe(false);
    expect(mailboxAllowed(list("*"), visitor("x", "mail.evil.example"))).toBe(true);
    expect(mailboxAllowed(null, visitor("x", "mail.evil.example"))).toBe(true);
  });
});

/** The app with registration on and `allowed`; `verify` counts live logins (the real one by default). */
async function server(allowed: string, verify?: (a: MailAccount) => Promise<void>) {
  const logins: MailAccount[] = [];
  const { app, ...deps } = testDeps({ openRegistration: true, allowedMailboxes: list(allowed) }, {
    verifyLogin: async (a, o) => { logins.push(a); await (verify ? verify(a) : verifyLogin(a, o)); },
  });
  // A stranger's own client: registered anonymously, returning to its own loopback port.
  const client = await registerOk(app);
  const form = async () => {
    const page = await authorize(app, authorizeQuery(newVerifier(), { client_id: client.client_id, redirect_uri: LOOPBACK }));
    return formIds(await page.text());
  };
  return { app, deps, logins, form };
}

const connect = (app: Handler, fields: Record<string, string>) => postForm(app, "/oauth/connect", fields);

describe("POST /oauth/connect with a list", () => {
  test("the attack: a stranger's own mail server vouching for a listed address gets no code, and is not even contacted", async () => {
    const { app, logins, form } = await server(h.dovecot.users.alice.email);
    const res = await connect(app, aliceFields(h, await form()));
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    const page = await res.text();
    expect(page).toContain("only connects the mailboxes its owner has listed");
    expect(page).toContain("MAILBOX_MCP_ALLOWED_MAILBOXES");
    expect(logins).toHaveLength(0);
  });

  test("its host on the list: connected (the owner's own mail server)", async () => {
    const { app, logins, form } = await server(h.dovecot.host);
    const res = await connect(app, aliceFields(h, await form()));
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toHaveLength(48);
    expect(logins).toHaveLength(1);
  });

  test("* connects anyone", async () => {
    const { app, form } = await server("*");
    expect((await connect(app, aliceFields(h, await form()))).status).toBe(303);
  });

  // A preset provider verifies its own logins; here a stand-in accepts any password, as the provider
  // would accept the right one. The typed address is a label: only the login counts.
  const preset = (ids: { request_id: string; csrf_token: string }, email: string, username?: string) => ({
    ...ids, provider: "gmail", email, password: "app-password", ...(username ? { username } : {}),
  });

  test("a preset provider's verified login on the list: connected; off the list: 403 after the login, nothing stored", async () => {
    const { app, deps, logins, form } = await server("@example.com", async () => {});
    expect((await connect(app, preset(await form(), "me@example.com"))).status).toBe(303);
    const grantsBefore = (await deps.store.admin.list()).length;
    const off = await connect(app, preset(await form(), "me@other.example"));
    expect(off.status).toBe(403);
    expect(await off.text()).toContain("accepted the login me@other.example");
    expect(logins).toHaveLength(2); // checked after the live login, so the list tells nothing to whoever lacks the password
    expect((await deps.store.admin.list()).length).toBe(grantsBefore);
  });

  test("the typed address is a label: a listed address typed over another login is refused", async () => {
    const { app, form } = await server("me@example.com", async () => {});
    expect((await connect(app, preset(await form(), "me@example.com", "attacker@gmail.com"))).status).toBe(403);
  });
});
