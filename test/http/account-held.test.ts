// The owner's page's held drafts (docs/owner.md §7): a message the send gate held (send_email under
// "always", from a client that cannot be asked) is listed with its subject, escaped and stripped of
// control and bidi characters; the subject is sealed at rest (the SQLite files hold no plaintext);
// sent later through this server (send_draft) it leaves the list; "dismiss" asks first, needs the
// session's CSRF token, takes it off the list and forgets the subject.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite, type Db } from "../../src/store/db.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { aliceFields, obtainToken, postForm } from "../oauth/flow.ts";

let h: Harness, srv: TestServer, db: Db, dir: string;

beforeAll(async () => {
  h = await getHarness();
  dir = mkdtempSync(join(tmpdir(), "account-held-"));
  db = await openSqlite(join(dir, "db.sqlite"));
  await migrate(db);
  srv = await startTestServer({ makeStore: (key, clock) => storesOver(db, key, clock) });
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  await db?.close();
});

const connectAlice = async (send: string): Promise<string> => (await obtainToken(srv.deps.app, h, { send })).token;

async function call<T>(token: string, tool: string, args: Record<string, unknown>): Promise<T> {
  const client = await connectClient(srv.mcpUrl, token);
  try {
    return await callOk<T>(client, tool, args);
  } finally {
    await client.close();
  }
}

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const app = srv.deps.app;
  const form = await (await app.handle(new Request("http://localhost/account"))).text();
  const { request_id: _r, csrf_token: _c, ...fields } = aliceFields(h, { request_id: "", csrf_token: "" });
  const res = await postForm(app, "/account/sign-in", { ...fields, csrf_token: /name="csrf_token" value="([^"]+)"/.exec(form)![1]! });
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await app.handle(new Request("http://localhost/account", { headers: { cookie } }))).text();
  return { cookie, csrf: /name="csrf_token" value="([^"]+)"/.exec(page)![1]! };
}

const heldSection = async (cookie: string) => {
  const page = await (await srv.deps.app.handle(new Request("http://localhost/account", { headers: { cookie } }))).text();
  return page.slice(page.indexOf('id="held"'), page.indexOf('id="activity"'));
};

/** Every byte of the store's files (the database and its WAL), after a checkpoint. */
async function storeFiles(): Promise<string> {
  await db.q`PRAGMA wal_checkpoint(FULL)`;
  return readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString("latin1")).join("\n");
}

type Held = { status: string; draft: { uid: number } | null };

describe("/account: held drafts", () => {
  test("listed with their subject (escaped, controls removed), sealed at rest; sent through send_draft they leave the list; dismiss", async () => {
    const asking = await connectAlice("always");
    const direct = await connectAlice("direct");
    const word = `zq${randomBytes(6).toString("hex")}`;
    // A bidi override and a <b>: removed and escaped on the page.
    const first = await call<Held>(asking, "send_email", { to: "bob@example.test", subject: `Quarterly \u202e${word} <b>`, text: "x" });
    expect(first.status).toBe("held_as_draft");
    const second = await call<Held>(asking, "send_email", { to: "bob@example.test", subject: `Second ${word}`, text: "y" });
    expect(second.status).toBe("held_as_draft");

    expect((await storeFiles()).includes(word)).toBe(false); // a boolean: the files are megabytes
    const alice = await signIn();
    let held = await heldSection(alice.cookie);
    expect(held).toContain(`“Quarterly ${word} &lt;b&gt;”`);
    expect(held).toContain(`“Second ${word}”`);
    expect(held).not.toContain("\u202e");

    // Sent through this server: it leaves the list by itself.
    expect((await call<Held>(direct, "send_draft", { uid: first.draft!.uid })).status).toBe("sent");
    held = await heldSection(alice.cookie);
    expect(held).not.toContain("Quarterly");
    expect(held).toContain(`Second ${word}`);

    // Dismiss: another session's token is refused, the page asks first, then it is gone with its subject.
    const id = /name="held" value="(\d+)"/.exec(held)![1]!;
    const post = (fields: Record<string, string>) => postForm(srv.deps.app, "/account/dismiss-held", { held: id, ...fields }, { cookie: alice.cookie });
    expect((await post({ csrf_token: "x".repeat(64), confirm: "1" })).status).toBe(403);
    const ask = await post({ csrf_token: alice.csrf });
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Take this message off the list?");
    expect((await post({ csrf_token: alice.csrf, held: "999999", confirm: "1" })).status).toBe(404);
    expect((await post({ csrf_token: alice.csrf, confirm: "1" })).status).toBe(303);
    held = await heldSection(alice.cookie);
    expect(held).not.toContain(word);
    expect(held).toContain("None.");
    const [left] = await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM held_subjects`;
    expect(Number(left!.n)).toBe(1); // the sent one's, until the 90-day purge; the dismissed one's is gone
  }, 60_000);
});
