// The owner's page's numbers (docs/owner.md §7): each connection's sends in the last hour and 24 hours
// against the caps, counted by the send gate's own ledger, and the held drafts, after a real send
// (to the harness SMTP) and a send the gate held as a draft (Dovecot's Drafts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { aliceFields, obtainToken, postForm } from "../oauth/flow.ts";

let h: Harness;
let srv: TestServer;

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer({ config: { sendLimits: { perHour: 7, perDay: 40 } } });
}, 60_000);

afterAll(async () => { await srv?.stop(); });

const connectAlice = async (send: string): Promise<string> => (await obtainToken(srv.deps.app, h, { send })).token;

async function send(token: string, subject: string): Promise<string> {
  const client = await connectClient(srv.mcpUrl, token);
  try {
    return (await callOk<{ status: string }>(client, "send_email", { to: "bob@example.test", subject, text: "x" })).status;
  } finally {
    await client.close();
  }
}

async function accountPage(): Promise<string> {
  const app = srv.deps.app;
  const form = await (await app.handle(new Request("http://localhost/account"))).text();
  const { request_id: _r, csrf_token: _c, ...fields } = aliceFields(h, { request_id: "", csrf_token: "" });
  const res = await postForm(app, "/account/sign-in", { ...fields, csrf_token: /name="csrf_token" value="([^"]+)"/.exec(form)![1]! });
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  return (await app.handle(new Request("http://localhost/account", { headers: { cookie } }))).text();
}

/** The "Sent" line of each connection, newest connection first. */
const sentLines = (page: string) => [...page.matchAll(/<dt>Sent<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => m[1]);

describe("/account: sends against the caps, and held drafts", () => {
  test("a sent message counts for its connection only; a held one counts nowhere and is listed as held", async () => {
    const direct = await connectAlice("direct");
    const asking = await connectAlice("always");
    expect(sentLines(await accountPage())).toEqual(["0 of 7 in the last hour, 0 of 40 in the last 24 hours", "0 of 7 in the last hour, 0 of 40 in the last 24 hours"]);

    const before = h.smtp.messages.length;
    expect(await send(direct, "counted on the page")).toBe("sent");
    expect(await send(direct, "counted twice")).toBe("sent");
    expect(await send(asking, "held for the owner")).toBe("held_as_draft");
    expect(h.smtp.messages.length).toBe(before + 2);

    const page = await accountPage();
    // Newest connection (the asking one) first: nothing sent; the direct one: two.
    expect(sentLines(page)).toEqual(["0 of 7 in the last hour, 0 of 40 in the last 24 hours", "2 of 7 in the last hour, 2 of 40 in the last 24 hours"]);
    const held = page.slice(page.indexOf("Held as drafts, not sent"));
    expect([...held.matchAll(/to bob@example\.test; in Drafts/g)]).toHaveLength(1);
    expect(held).not.toContain("None.");
  }, 60_000);
});
