// `mailbox-mcp grants` and `revoke` as an owner runs them: a separate process on the data dir of a
// running server, which must end the revoked grant's SSE stream within 2 seconds and answer 401.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { startLiveService, type LiveService } from "../support/live-service.ts";
import { TEST_CLIENT_ID } from "../support/app.ts";
import { obtainToken } from "../oauth/flow.ts";

let h: Harness;
let live: LiveService;

beforeAll(async () => {
  h = await getHarness();
  // A short poll keeps the test quick; the default (1 s) is what gives the 2-second promise.
  live = await startLiveService({ revocationPollMs: 100 });
}, 30_000);
afterAll(() => live?.stop());

const ACCEPT = "application/json, text/event-stream";

async function mcpPost(token: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(`${live.base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, authorization: `Bearer ${token}`, ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
    body: JSON.stringify(body),
  });
}

/** A session with its standalone GET /mcp SSE stream open, as clients open it right after connecting. */
async function openStream(token: string): Promise<{ sessionId: string; ended: Promise<number> }> {
  const init = await mcpPost(token, {
    jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  await init.text();
  const sessionId = init.headers.get("mcp-session-id")!;
  await (await mcpPost(token, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId)).text();
  const sse = await fetch(`${live.base}/mcp`, { headers: { authorization: `Bearer ${token}`, accept: ACCEPT, "mcp-session-id": sessionId } });
  expect(sse.status).toBe(200);
  return { sessionId, ended: sse.text().then(() => performance.now(), () => performance.now()) };
}

const grantIds = (listing: string) => [...listing.matchAll(/^([0-9a-f]{8})  /gm)].map((m) => m[1]!);

describe("mailbox-mcp grants", () => {
  test("lists a live grant: id, mailbox, host, client and redirect host, scope, times; last used after a call", async () => {
    const { token } = await obtainToken(live.handler, h);
    const before = await live.cli(["grants"]);
    expect(before.code).toBe(0);
    const id = grantIds(before.stdout)[0]!;
    const block = before.stdout.slice(before.stdout.indexOf(id)).split("\n\n")[0]!;
    expect(block).toContain(`${h.dovecot.users.alice.email} on ${h.dovecot.host}`);
    expect(block).toContain(`client     ${TEST_CLIENT_ID} (this server's OAuth client), signed in through localhost:6274`);
    expect(block).toContain("scope      email:read email:write (read and write)");
    expect(block).toContain("sending    new_recipients (ask before writing to a new recipient)"); // the form's default
    expect(block).toMatch(/created    \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(block).toContain("last used  never");
    expect(block).toMatch(/expires    \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(before.stdout).not.toContain(token);

    const client = await connectClient(`${live.base}/mcp`, token);
    await callOk(client, "list_mailboxes");
    await client.close();
    const json = JSON.parse((await live.cli(["grants", "--json"])).stdout) as Array<{ id: string; last_used_at: string | null; email: string; send_policy: string }>;
    const mine = json.find((g) => g.id.startsWith(id))!;
    expect(mine.send_policy).toBe("new_recipients");
    expect(mine.email).toBe(h.dovecot.users.alice.email);
    expect(mine.last_used_at).not.toBeNull();
  }, 30_000);

  test("revoke <id> from another process ends the running server's SSE stream within 2 s; the token then gets 401", async () => {
    const { token } = await obtainToken(live.handler, h);
    const { sessionId, ended } = await openStream(token);
    const id = grantIds((await live.cli(["grants"])).stdout)[0]!; // newest first
    const r = await live.cli(["revoke", id]);
    const revokedAt = performance.now();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Revoked ${id}  ${h.dovecot.users.alice.email}`);
    const within = await Promise.race([ended.then((t) => t - revokedAt), Bun.sleep(2000).then(() => Infinity)]); // the asserted 2 s bound
    expect(within).toBeLessThan(2000);
    const after = await mcpPost(token, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, sessionId);
    expect(after.status).toBe(401);
    expect((await live.cli(["grants"])).stdout).not.toContain(id);
  }, 30_000);

  test("revoke <email> revokes every grant of that address", async () => {
    const tokens = [(await obtainToken(live.handler, h)).token, (await obtainToken(live.handler, h)).token];
    const r = await live.cli(["revoke", h.dovecot.users.alice.email.toUpperCase()]);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^Revoked /gm)!.length).toBeGreaterThanOrEqual(2);
    for (const token of tokens) expect((await mcpPost(token, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(401);
    expect((await live.cli(["grants"])).stdout).toContain("No live grants");
  }, 30_000);

  test("clear errors: unknown id, unknown address, neither, no argument, no store", async () => {
    const unknown = await live.cli(["revoke", "deadbeef"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(`mailbox-mcp revoke: no live grant has the id deadbeef. List them with: bun ${"src/main.ts"} grants`);
    const nobody = await live.cli(["revoke", "nobody@example.com"]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("no live grant for nobody@example.com");
    const neither = await live.cli(["revoke", "xyz"]);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain("neither a grant id");
    expect((await live.cli(["revoke"])).code).toBe(2);
    const elsewhere = await live.cli(["grants", "--data-dir", `${live.env.MAILBOX_MCP_DATA_DIR}-none`]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("no store at");
  }, 30_000);
});

describe("mailbox-mcp activity", () => {
  test("prints each write call with its grant, tool, outcome and what it touched; kept after revoke", async () => {
    const { token } = await obtainToken(live.handler, h);
    const client = await connectClient(`${live.base}/mcp`, token);
    const draft = await callOk(client, "draft_email", { to: "bob@example.test", subject: "activity-cli", text: "private words" });
    await callOk(client, "get_recent_emails", { limit: 1 });
    await client.close();
    const id = grantIds((await live.cli(["grants"])).stdout)[0]!;
    const today = new Date().toISOString().slice(0, 10);
    const r = await live.cli(["activity", "--grant", id, "--since", today]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1); // the read left no row
    expect(lines[0]).toMatch(new RegExp(`^${today} \\d\\d:\\d\\d:\\d\\d UTC  ${id}  draft_email  ok     to bob@example.test; in ${draft.folder}; uids ${draft.uid}; Message-ID ${draft.message_id.replace(/[.+]/g, "\\$&")}$`));
    expect(r.stdout).not.toContain("private words");
    expect(r.stdout).not.toContain("activity-cli");
    expect((await live.cli(["revoke", id])).code).toBe(0);
    expect((await live.cli(["activity", "--grant", id])).stdout).toContain("draft_email");
    expect((await live.cli(["activity", "--since", "2999-01-01"])).stdout).toContain("No activity");
  }, 30_000);

  test("bad options: exit 2 with what to give", async () => {
    const since = await live.cli(["activity", "--since", "2026-02-30"]);
    expect(since.code).toBe(2);
    expect(since.stderr.trim()).toBe('mailbox-mcp activity: --since must be a date as YYYY-MM-DD (UTC), not "2026-02-30"');
    expect((await live.cli(["activity", "--grant", "xyz"])).code).toBe(2);
    expect((await live.cli(["activity", "--grant"])).code).toBe(2);
  }, 30_000);
});
