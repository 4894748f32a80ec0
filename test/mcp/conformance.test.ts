// The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) against the real
// server: the prompts, resources, completion and caching scenarios that apply to a server whose prompts
// and resources are its own, in the 2025-11-25 and 2026-07-28 eras. The suite speaks no OAuth, so a
// relay on loopback adds a real token to every request it forwards. Scenarios that need the suite's own
// fixtures (a prompt named test_simple_prompt, a resource test://static-text, completion of
// test_prompt_with_arguments) do not apply and are not run (docs/decisions.md "Prompts, completions and
// the message resource").
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHarness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

const SUITE = new URL("../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url).pathname;

let srv: TestServer;
let relay: ReturnType<typeof Bun.serve>;
let out: string;

beforeAll(async () => {
  const h = await getHarness();
  srv = await startTestServer();
  const { token } = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port));
  relay = Bun.serve({
    hostname: "127.0.0.1", port: 0, idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("authorization", `Bearer ${token}`);
      headers.delete("host");
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      const res = await fetch(`${srv.baseUrl}${url.pathname}${url.search}`, { method: req.method, headers, body, redirect: "manual" });
      return new Response(res.body, { status: res.status, headers: res.headers });
    },
  });
  out = mkdtempSync(join(tmpdir(), "mailbox-mcp-conformance-"));
}, 30_000);

afterAll(async () => {
  relay?.stop(true);
  await srv?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs one scenario with the suite's CLI and returns its checks (from the results it saves). */
async function scenario(name: string, specVersion: string): Promise<Check[]> {
  const dir = join(out, `${name}-${specVersion}`);
  const proc = Bun.spawn(["bun", SUITE, "server", "--url", `http://localhost:${relay.port}/mcp`, "--scenario", name,
    "--spec-version", specVersion, "-o", dir, "--timeout", "20000"], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
  await proc.exited;
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith("checks.json"));
  if (files.length === 0) throw new Error(`no results from ${name}:\n${stdout}\n${stderr}`);
  return files.flatMap((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Check[]);
}

const APPLICABLE: Array<[string, string[]]> = [
  ["2025-11-25", ["prompts-list", "resources-list", "server-initialize", "tools-list"]],
  ["2026-07-28", ["prompts-list", "resources-list", "sep-2164-resource-not-found", "caching", "tools-list"]],
];

for (const [version, names] of APPLICABLE) {
  describe(`conformance ${version}`, () => {
    test.each(names)("%s: every check passes", async (name) => {
      const checks = await scenario(name, version);
      const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
      expect(failed).toEqual([]);
      expect(checks.filter((c) => c.status === "SUCCESS").length).toBeGreaterThan(0);
    }, 60_000);
  });
}
