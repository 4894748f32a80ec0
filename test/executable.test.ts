// The shipped artefact, as a homelab user runs it: the single executable built from this tree,
// started in an empty directory with only MAILBOX_MCP_* settings, driven through the whole OAuth
// flow and the MCP tools against the harness Dovecot and SMTP server. It runs under a memory limit
// (RLIMIT_DATA 2 GB, as in the review that found issue 19 item 1; its helpers lower their own), so
// a PDF that could take the server's memory would fail or crash it here.
import { LISTED_TOOLS } from "../src/mcp/tools/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SECURITY_HEADERS } from "../src/http/plugins/security.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "./support/app.ts";
import { freePort } from "./support/dovecot.ts";
import { getHarness, type Harness } from "./support/harness.ts";
import { rawRequest } from "./support/raw-http.ts";
import { htmlOnly } from "./support/mail-fixtures.ts";
import { attached, withPart } from "./support/attachment-mail.ts";
import { tinyPdf } from "./support/pdf.ts";
import { cmapBombPdf, flateBombPdf } from "./support/hostile-pdf.ts";
import { watchTree } from "./support/process-tree.ts";
import { withHealthPolls } from "./support/health-polls.ts";
import { obtainCode, postForm, tokenFields, type Handler } from "./oauth/flow.ts";
import { until } from "./support/until.ts";

const ROOT = join(import.meta.dir, "..");
const work = mkdtempSync(join(tmpdir(), "exe-"));
const dataDir = join(work, "data");
let exe: ReturnType<typeof Bun.spawn>;
let env: Record<string, string>;
let base: string;
let h: Harness;
const secrets: string[] = [];
const SERVER_DATA_LIMIT_MB = 2048;

/** flow.ts speaks to app.handle() with http://localhost URLs; send those to the executable instead. */
const viaExe: Handler = {
  async handle(req) {
    const url = new URL(req.url);
    return fetch(`${base}${url.pathname}${url.search}`, {
      method: req.method, headers: req.headers, redirect: "manual",
      body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
    });
  },
};

beforeAll(async () => {
  h = await getHarness();
  const build = Bun.spawnSync(["bun", "scripts/build.ts", "--outdir", work], { cwd: ROOT, stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  const port = await freePort();
  base = `http://localhost:${port}`;
  // A .env in the working directory must be ignored by the compiled binary.
  writeFileSync(join(work, ".env"), "MAILBOX_MCP_PORT=1\nMAILBOX_MCP_CLIENT_ID=from-dotenv\n");
  env = {
    MAILBOX_MCP_PORT: String(port), MAILBOX_MCP_BASE_URL: base, MAILBOX_MCP_DATA_DIR: dataDir,
    MAILBOX_MCP_CLIENT_ID: TEST_CLIENT_ID, MAILBOX_MCP_CLIENT_SECRET: TEST_CLIENT_SECRET,
    MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true",
  };
  // exec keeps the pid: exe.pid is the executable's, under the limit the shell set.
  exe = Bun.spawn(["/bin/sh", "-c", `ulimit -d ${SERVER_DATA_LIMIT_MB * 1024} && exec "$0"`, join(work, "mailbox-mcp")], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  await until(async () => {
    if (exe.exitCode !== null) throw new Error(`the executable exited (${exe.exitCode}) before answering /health`);
    return fetch(`${base}/health`).then((r) => r.ok, () => false);
  }, { what: "the executable to answer /health", timeoutMs: 15_000 });
}, 60_000);

afterAll(async () => {
  exe?.kill("SIGTERM");
  await exe?.exited;
});

describe("the single executable", () => {
  test("serves health (GET, HEAD), metadata and well-known documents with the security headers", async () => {
    const health = await fetch(`${base}/health`);
    expect(await health.json()).toMatchObject({ status: "ok", transport: "streamable-http" });
    const head = await fetch(`${base}/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(await (await fetch(`${base}/oauth/meta`)).json()).toMatchObject({ issuer: base, token_endpoint_auth_methods_supported: ["client_secret_post"] });
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({ resource: `${base}/mcp` });
    // The icons hosts show are served by the executable itself (drawn into code, nothing embedded as files).
    const icon = await fetch(`${base}/icons/mailbox-64.png`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(Buffer.from(await icon.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
    for (const res of [health, head, await fetch(`${base}/missing`), await fetch(`${base}/mcp`, { method: "POST" })]) {
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k)).toBe(v);
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  test("CORS answers only allowlisted origins", async () => {
    const pre = (origin: string) => fetch(`${base}/mcp`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
    expect((await pre("https://claude.ai")).headers.get("access-control-allow-origin")).toBe("https://claude.ai");
    expect((await pre("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
  });

  test("data dir 0700 and key file 0600", () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  test("OAuth flow, MCP tools and revoke end to end; nothing secret at rest", async () => {
    const { code, verifier, location } = await obtainCode(viaExe, h);
    expect(location.searchParams.get("state")).toBe("state-123");
    const tokenRes = await postForm(viaExe, "/oauth/token", tokenFields(code, verifier));
    expect(tokenRes.status).toBe(200);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    secrets.push(code, token, h.dovecot.users.alice.pass);

    const client = new Client({ name: "exe-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }));
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(LISTED_TOOLS.map((t) => t.name).sort());
    const subject = `exe ${Date.now()}`;
    // The form's default send policy asks before writing to someone new; the mailbox's own address never is.
    const sent = await client.callTool({ name: "send_email", arguments: { to: [h.dovecot.users.alice.email], subject, text: "from the executable" } });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
    const sentFolder = await client.callTool({ name: "search_emails", arguments: { folder: "Sent", subject } });
    expect((sentFolder.structuredContent as { total: number }).total).toBe(1);
    const msg = (sentFolder.structuredContent as { emails: Array<{ uid: number }> }).emails[0]!;
    const full = await client.callTool({ name: "get_email", arguments: { folder: "Sent", uid: msg.uid } });
    expect((full.structuredContent as { body_text: string }).body_text).toContain("from the executable");

    // markdown-it is inside the executable: a Markdown draft's plain-text part is made from the same source.
    const mdSaved = await client.callTool({ name: "draft_email", arguments: { to: "bob@example.test", subject: `${subject} md`, markdown: "**Hi**, see [the plan](https://plan.example/x)." } });
    const mdDraft = await client.callTool({ name: "get_email", arguments: { folder: "\\Drafts", uid: (mdSaved.structuredContent as { uid: number }).uid } });
    expect((mdDraft.structuredContent as { body_text: string }).body_text).toBe("Hi, see the plan <https://plan.example/x>.");

    // HTML is converted in a helper process, the executable itself started as one: body_note null
    // means the helper converted it (a helper that cannot start would fall back to stripping, with a note).
    const htmlSubject = `exe html ${Date.now()}`;
    await h.dovecot.deliver("alice", htmlOnly({ subject: htmlSubject }, "<h1>Welcome Home</h1><table><tr><td>a</td><td>b</td></tr></table>"));
    const found = await client.callTool({ name: "search_emails", arguments: { subject: htmlSubject } });
    const uid = (found.structuredContent as { emails: Array<{ uid: number }> }).emails[0]!.uid;
    const html = (await client.callTool({ name: "get_email", arguments: { uid } })).structuredContent as { body_text: string; body_note: string | null };
    expect(html).toMatchObject({ body_text: "Welcome Home\n\na b", body_note: null });
    // Markdown (turndown) is bundled into the helper too.
    const md = (await client.callTool({ name: "get_email", arguments: { uid, format: "markdown" } })).structuredContent as { body_text: string; body_note: string | null };
    expect(md).toMatchObject({ body_text: "# Welcome Home\n\na\n\nb", body_note: null });

    // PDF.js runs in the PDF helper process, which must be inside the executable too, with the
    // unpdf bundle it imports: the text comes back only if both were built in.
    const pdfSubject = `exe pdf ${Date.now()}`;
    await h.dovecot.deliver("alice", withPart({ subject: pdfSubject }, attached("application/pdf", "exe.pdf", tinyPdf([["Read inside the executable"]]))));
    const pdfUid = ((await client.callTool({ name: "search_emails", arguments: { subject: pdfSubject } })).structuredContent as { emails: Array<{ uid: number }> }).emails[0]!.uid;
    const pdf = (await client.callTool({ name: "get_attachment", arguments: { uid: pdfUid, part: "2" } })).structuredContent;
    expect(pdf).toMatchObject({ kind: "pdf", content: "text", text: "Read inside the executable", pages: 1 });
    await client.close();

    // The owner's verbs, run as a second process of the same executable on the same data dir.
    const verb = (args: string[]) => Bun.spawnSync([join(work, "mailbox-mcp"), ...args], { cwd: work, env }).stdout.toString();
    expect(verb(["grants"])).toContain(`${h.dovecot.users.alice.email} on ${h.dovecot.host}`);
    expect(verb(["activity"])).toMatch(/send_email +ok +to alice@example\.test; .*; sent without asking\n/);

    const files = readdirSync(dataDir).map((f) => readFileSync(join(dataDir, f)).toString("latin1")).join("\n");
    for (const secret of [h.dovecot.users.alice.pass, token, code]) expect(files.includes(secret)).toBe(false);

    const revoke = await fetch(`${base}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
    expect(await revoke.json()).toEqual({ revoked: true });
    const after = await fetch(`${base}/mcp`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{}" });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  test("PDFs built to exhaust memory: the call says so, /health answers throughout, server and helpers grow < 500 MB", async () => {
    const { code, verifier } = await obtainCode(viaExe, h);
    const { access_token: token } = (await (await postForm(viaExe, "/oauth/token", tokenFields(code, verifier))).json()) as { access_token: string };
    secrets.push(code, token);
    const client = new Client({ name: "exe-bombs", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const subject = `exe bombs ${Date.now()}`;
    const bombs = { cmap: cmapBombPdf(3), flate: flateBombPdf(1024), fine: tinyPdf([["Still read after the bombs"]]) };
    for (const [name, pdf] of Object.entries(bombs)) await h.dovecot.deliver("alice", withPart({ subject: `${subject} ${name}` }, attached("application/pdf", `${name}.pdf`, pdf)));
    const uidOf = async (name: string) => ((await client.callTool({ name: "search_emails", arguments: { subject: `${subject} ${name}` } })).structuredContent as { emails: Array<{ uid: number }> }).emails[0]!.uid;
    const read = async (name: string) => (await client.callTool({ name: "get_attachment", arguments: { uid: await uidOf(name), part: "2" } })).structuredContent as Record<string, unknown>;
    await read("fine"); // a PDF helper is running, as on a server in use

    const watch = watchTree(exe.pid);
    const before = watch.peak;
    const { result: results, worstHealth, polls } = await withHealthPolls(base, async () => [await read("cmap"), await read("flate")], 50);
    const grown = watch.stop() - before;
    console.log(`executable: PDF bombs grew the server and its helpers by at most ${Math.round(grown / 1048576)} MB; /health ${polls} polls, worst ${Math.round(worstHealth)} ms`);
    expect(exe.exitCode).toBeNull();
    expect(grown).toBeLessThan(500 * 1024 * 1024); // in a worker thread (before) the first took this process to its 2 GB limit
    expect(worstHealth).toBeLessThan(1000);
    for (const r of results) {
      expect(r).toMatchObject({ kind: "pdf", content: "none", text: null });
      expect(String(r.note)).toMatch(/Reading the PDF was stopped: it needed more than the 320 MB of memory this server allows one document/);
    }
    expect(await read("fine")).toMatchObject({ content: "text", text: "Still read after the bombs" });
    await client.close();
  }, 120_000);

  test("no or malformed Host: our 400 JSON with the security headers, never Bun's error page", async () => {
    const port = Number(new URL(base).port);
    for (const request of ["GET /health HTTP/1.0\r\n\r\n", "GET /health HTTP/1.1\r\nHost: a@b.com\r\n\r\n", "GET /mcp HTTP/1.1\r\nHost: evil.com/x\r\n\r\n"]) {
      const reply = await rawRequest(port, request);
      expect(reply.status).toBe(400);
      expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[k]).toBe(v);
      expect(reply.body.length).toBeLessThan(300);
    }
  });

  test("stops on SIGTERM; its log has one line per request and no secret", async () => {
    exe.kill("SIGTERM");
    expect(await exe.exited).toBe(0);
    const log = (await new Response(exe.stderr as ReadableStream).text()) + (await new Response(exe.stdout as ReadableStream).text());
    expect(log).toContain("method=POST path=/oauth/token status=200");
    expect(secrets).toHaveLength(5);
    for (const secret of secrets) expect(log.includes(secret)).toBe(false);
    expect(log).not.toContain("code=");
    expect(log).toContain('client secret: run "./mailbox-mcp client"'); // as it was started, from its directory
  });
});
