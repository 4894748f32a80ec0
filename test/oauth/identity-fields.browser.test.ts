// The setup form's identity fields (issue 44) in real headless Chromium: "Also send as" and
// "Signature" filled, the mailbox connected, then send_email through /mcp with `from` = the alias.
// The SMTP receiver sees the alias in MAIL FROM and in From with its display name. The form's
// signature is the login address's (each other address has its own, set on /account): a message
// from the login carries it once, below the text; the new alias has none yet.
import { describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import { randomBytes } from "node:crypto";
import { fillAlice, formApp } from "../support/browser.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { authorizeQuery, newVerifier, postForm, tokenFields } from "./flow.ts";

const fx = formApp();

/** Connects alice through the form with these identity fields and "Send without asking"; the access token. */
async function connectWith(sendAs: string, signature: string): Promise<string> {
  const context = await fx.running.browser.newContext();
  const page = await context.newPage();
  const verifier = newVerifier();
  await page.goto(`${fx.running.base}/oauth/authorize?${authorizeQuery(verifier, { redirect_uri: fx.callback.redirect })}`);
  await fillAlice(page, fx.h);
  await page.check('input[name="send"][value="direct"]');
  await page.click("#identities > summary"); // folded away until opened
  await page.fill("#send_as", sendAs);
  await page.fill("#signature", signature);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(fx.callback.redirect + "?")), page.click("#connect")]);
  const code = new URL(page.url()).searchParams.get("code")!;
  await context.close();
  const res = await postForm(fx.running.server.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: fx.callback.redirect }));
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("identity fields on the setup form, in headless Chromium", () => {
  test("an alias and a signature set on the form: send_email from the alias goes out under its name; the login's message is signed once", async () => {
    const tag = randomBytes(4).toString("hex");
    const alias = `alice-${tag}@work.example`;
    const signature = `Alice Example, work desk ${tag}`;
    const token = await connectWith(`Other Line <other-${tag}@work.example>\nAlice at Work <${alias}>`, signature);
    const client = await connectClient(`${fx.running.base}/mcp`, token);
    try {
      const to = `bob-${tag}@example.test`;
      const sent = await callOk(client, "send_email", { to, from: alias, subject: `from the alias ${tag}`, text: "Hello Bob." });
      expect(sent).toMatchObject({ status: "sent" });
      const got = fx.h.smtp.messages.filter((m) => m.to.includes(to));
      expect(got).toHaveLength(1);
      expect(got[0]!.from).toBe(alias);
      const parsed = await simpleParser(got[0]!.raw);
      expect(parsed.from?.value).toEqual([{ name: "Alice at Work", address: alias }]);
      expect(parsed.text).toBe("Hello Bob.\n");
      const mine = await callOk(client, "send_email", { to, subject: `from the login ${tag}`, text: "Hi again." });
      expect(mine).toMatchObject({ status: "sent" });
      const login = await simpleParser(fx.h.smtp.messages.filter((m) => m.to.includes(to))[1]!.raw);
      expect(login.text!.split(signature)).toHaveLength(2);
      expect(login.text!.indexOf("Hi again.")).toBeLessThan(login.text!.indexOf(`-- \n${signature}`));
    } finally {
      await client.close();
    }
  }, 60_000);
});
