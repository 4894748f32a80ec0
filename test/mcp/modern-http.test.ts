// The 2026-07-28 era of /mcp over raw HTTP (src/mcp/transport/modern.ts, src/http/routes/mcp.ts): served
// without a session; MCP-Protocol-Version, Mcp-Method and Mcp-Name checked against the body (400
// -32020 when they disagree or are missing), an unsupported revision refused (400 -32022 with
// data.supported), GET and DELETE refused (405); the Bearer guard, Origin check, scope check, body
// limit and security headers as for the 2025 era.
import { LISTED_TOOLS } from "../../src/mcp/tools/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SECURITY_HEADERS } from "../../src/http/plugins/security.ts";
import { USERS } from "../support/dovecot.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

const MODERN = "2026-07-28";
let srv: TestServer;
let token: string;
let readOnly: string;

beforeAll(async () => {
  srv = await startTestServer();
  const nowhere = testAccount(USERS.alice, { host: "localhost", port: 1 }); // list_providers touches no IMAP
  token = (await issueTestGrant(srv.deps, nowhere)).token;
  readOnly = (await issueTestGrant(srv.deps, nowhere, "email:read")).token;
});
afterAll(() => srv.stop());

const envelope = (version = MODERN) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
});

interface Body {
  jsonrpc: "2.0";
  id: number;
  method: string;
  params: Record<string, unknown> & { _meta: ReturnType<typeof envelope> };
}

function request(method: string, params: Record<string, unknown> = {}, version = MODERN): Body {
  return { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope(version) } };
}

/** Headers a conforming client sends for `body`; `override` replaces or (with null) removes some. */
function headersFor(body: Body, override: Record<string, string | null> = {}, auth = token): Record<string, string> {
  const h: Record<string, string | null> = {
    authorization: `Bearer ${auth}`, "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-protocol-version": body.params._meta["io.modelcontextprotocol/protocolVersion"], "mcp-method": body.method,
    ...(typeof body.params.name === "string" ? { "mcp-name": body.params.name } : {}),
    ...override,
  };
  return Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== null));
}

function post(body: Body, override: Record<string, string | null> = {}, auth = token): Promise<Response> {
  return fetch(srv.mcpUrl, { method: "POST", headers: headersFor(body, override, auth), body: JSON.stringify(body) });
}

describe("2026-07-28 requests are served without a session", () => {
  test("server/discover offers 2026-07-28 and the server's identity", async () => {
    const res = await post(request("server/discover"));
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const { result } = await res.json();
    expect(result.supportedVersions).toContain(MODERN);
    expect(result._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "mailbox-mcp" });
    expect(result.instructions).toContain("untrusted");
    expect(result.capabilities.tools).toBeDefined();
  });

  test("tools/list: every tool, cacheable for an hour by any client", async () => {
    const res = await post(request("tools/list"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const { result } = await res.json();
    expect(result.tools).toHaveLength(LISTED_TOOLS.length);
    expect(result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(result.resultType).toBeDefined();
  });

  test("tools/call answers with structuredContent; the security headers are on it", async () => {
    const res = await post(request("tools/call", { name: "list_providers", arguments: {} }));
    expect(res.status).toBe(200);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k)).toBe(v);
    const { result } = await res.json();
    expect(result.structuredContent.providers.length).toBeGreaterThan(5);
    expect(result.resultType).toBeDefined();
  });
});

describe("the headers must agree with the body: 400 with JSON-RPC -32020", () => {
  const call = () => request("tools/call", { name: "list_providers", arguments: {} });
  const cases: Array<[string, Body, Record<string, string | null>]> = [
    ["MCP-Protocol-Version names another revision", call(), { "mcp-protocol-version": "2025-11-25" }],
    ["Mcp-Method names another method", call(), { "mcp-method": "tools/list" }],
    ["Mcp-Name names another tool", call(), { "mcp-name": "get_email" }],
    ["MCP-Protocol-Version missing", call(), { "mcp-protocol-version": null }],
    ["Mcp-Method missing", call(), { "mcp-method": null }],
    ["Mcp-Name missing on tools/call", call(), { "mcp-name": null }],
  ];
  for (const [name, body, override] of cases) {
    test(name, async () => {
      const res = await post(body, override);
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer.error.code).toBe(-32020);
      expect(answer.id).toBe(1);
    });
  }
});

test("an unsupported revision: 400 with JSON-RPC -32022 naming the supported ones", async () => {
  const res = await post(request("tools/list", {}, "2099-01-01"));
  expect(res.status).toBe(400);
  const { error } = await res.json();
  expect(error.code).toBe(-32022);
  expect(error.data.supported).toContain(MODERN);
  expect(error.data.requested).toBe("2099-01-01");
});

describe("GET and DELETE from a modern client: 405 (no sessions to stream or end)", () => {
  for (const method of ["GET", "DELETE"]) {
    test(method, async () => {
      const res = await fetch(srv.mcpUrl, {
        method, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "mcp-protocol-version": MODERN },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    });
  }

  test("without a modern MCP-Protocol-Version, a GET without session id is still the 2025 era's 400", async () => {
    const res = await fetch(srv.mcpUrl, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    expect(res.status).toBe(400);
  });
});

describe("guards shared with the 2025 era", () => {
  test("no token: 401 with the resource_metadata challenge; a bad one: 401 invalid_token", async () => {
    const body = request("tools/list");
    const none = await post(body, { authorization: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain(`resource_metadata="${srv.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    const bad = await post(body, {}, "0".repeat(64));
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  test("a foreign Origin: 403 before the token is looked at", async () => {
    expect((await post(request("tools/list"), { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(request("tools/list"), { origin: "https://claude.ai" })).status).toBe(200);
  });

  test("a write tool without email:write: 403 insufficient_scope; a read tool works", async () => {
    const res = await post(request("tools/call", { name: "draft_email", arguments: { to: "bob@example.test", subject: "x", text: "y" } }), {}, readOnly);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect((await post(request("tools/call", { name: "list_providers", arguments: {} }), {}, readOnly)).status).toBe(200);
  });

  test("a body over 32 MB: 413", async () => {
    const big = request("tools/call", { name: "list_providers", arguments: { pad: "x".repeat(32 * 1024 * 1024) } });
    expect((await post(big)).status).toBe(413);
  });

  test("CORS lets browsers send the 2026-07-28 headers", async () => {
    const res = await fetch(srv.mcpUrl, {
      method: "OPTIONS",
      headers: { origin: "https://claude.ai", "access-control-request-method": "POST", "access-control-request-headers": "mcp-method, mcp-name" },
    });
    expect(res.headers.get("access-control-allow-headers") ?? "").toMatch(/Mcp-Method/i);
    expect(res.headers.get("access-control-allow-headers") ?? "").toMatch(/Mcp-Name/i);
  });
});
