// MAILBOX_MCP_NOTIFY_GRANTS (docs/owner.md §6): a connect puts a notice into the mailbox's INBOX by
// IMAP APPEND, naming the app's host, the access, the send policy and {base_url}/account.
import { afterAll, describe, expect, test } from "bun:test";
import { getHarness } from "../support/harness.ts";
import { testDeps } from "../support/app.ts";
import { loginImap, findBySubject } from "../support/imap.ts";
import { until } from "../support/until.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm } from "../oauth/flow.ts";

const SUBJECT = "was given access to your mailbox";

describe("the grant notice", () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterAll(async () => cleanup?.(), 10_000);

  test("on: one notice in bob's INBOX after a connect, unseen, with the link to /account", async () => {
    const h = await getHarness();
    const { app } = testDeps({ notifyGrants: true, baseUrl: "http://localhost" });
    const imap = await loginImap(h.dovecot, h.dovecot.users.bob);
    cleanup = async () => {
      const found = await findBySubject(imap, "INBOX", SUBJECT);
      if (found.length) await imap.messageDelete(found.map((m) => m.uid).join(","), { uid: true });
      await imap.logout();
    };
    const before = (await findBySubject(imap, "INBOX", SUBJECT)).length;
    const ids = formIds(await (await authorize(app, authorizeQuery(newVerifier()))).text());
    const bob = h.dovecot.users.bob;
    const res = await postForm(app, "/oauth/connect", aliceFields(h, ids, { email: bob.email, password: bob.pass, send: "always" }));
    expect(res.status).toBe(303);
    await until(async () => (await findBySubject(imap, "INBOX", SUBJECT)).length > before);
    const found = await findBySubject(imap, "INBOX", SUBJECT);
    const notice = found[found.length - 1]!;
    const text = notice.raw.toString("utf8");
    expect(found.length).toBe(before + 1);
    expect(notice.seen).toBe(false);
    expect(text).toContain("Subject: An app at localhost:6274 was given access to your mailbox");
    expect(text).toContain("Access: read and write");
    expect(text).toContain("Sending: ask before every send");
    expect(text).toContain("http://localhost/account");
    expect(text).not.toContain(bob.pass);
  });

  test("off: no notifier is wired", () => {
    expect(testDeps({ notifyGrants: false }).notifyGrant).toBeUndefined();
    expect(testDeps({ notifyGrants: true }).notifyGrant).toBeFunction();
  });
});
