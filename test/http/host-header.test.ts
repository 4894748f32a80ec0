// Requests whose URL cannot be built (no Host, or a Host that is not host[:port]) and throws that
// escape the app: answered by our own JSON with the security headers, never by Bun's development
// error page (stack trace, working directory, source lines). Through the real server, over raw TCP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { App } from "../../src/http/app.ts";
import { pathOf } from "../../src/http/plugins/host-header.ts";
import { SECURITY_HEADERS } from "../../src/http/plugins/security.ts";
import { serve } from "../../src/http/serve.ts";
import { memoryLogger } from "../../src/log.ts";
import { testDeps } from "../support/app.ts";
import { rawRequest, type RawReply } from "../support/raw-http.ts";

let server: Server<undefined>;
const log = memoryLogger();

beforeAll(() => {
  server = serve(testDeps().app, { hostname: "127.0.0.1", port: 0, log });
});
afterAll(() => server.stop(true));

function expectOurs(reply: RawReply, status: number) {
  expect(reply.status).toBe(status);
  expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[k]).toBe(v);
  expect(reply.body.length).toBeLessThan(300);
  expect(reply.text).not.toContain(process.cwd());
  expect(reply.text).not.toContain("<html");
}

describe("Host header", () => {
  const cases: Array<[string, string]> = [
    ["HTTP/1.0 without Host", "GET /health HTTP/1.0\r\n\r\n"],
    ["Host: a@b.com", "GET /health HTTP/1.1\r\nHost: a@b.com\r\nConnection: close\r\n\r\n"],
    ["Host: evil.com/x", "GET /oauth/authorize?client_id=x HTTP/1.1\r\nHost: evil.com/x\r\nConnection: close\r\n\r\n"],
    ["Host with a space", "GET /mcp HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"],
    ["Host with a port out of range", "GET /health HTTP/1.1\r\nHost: localhost:99999\r\nConnection: close\r\n\r\n"],
  ];
  for (const [name, request] of cases) {
    test(`${name} → 400 JSON with the security headers`, async () => {
      const reply = await rawRequest(server.port!, request);
      expectOurs(reply, 400);
      expect(JSON.parse(reply.body)).toMatchObject({ error: "invalid_request" });
    });
  }

  test("well-formed hosts are served: name, name:port, IPv4, [IPv6]:port", async () => {
    for (const host of ["localhost", `localhost:${server.port}`, "127.0.0.1", "[::1]:8787", "mail_box.internal."]) {
      const reply = await rawRequest(server.port!, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(reply.status).toBe(200);
    }
  });

  test("the log line has the path without the query", () => {
    expect(log.lines.some((l) => l.includes("path=/oauth/authorize status=400"))).toBe(true);
    expect(log.lines.join("\n")).not.toContain("client_id=x");
  });
});

describe("a throw that escapes the app", () => {
  test("is the generic 500 JSON with the security headers; the cause is only logged", async () => {
    const failing = { fetch: () => { throw new Error(`boom in ${process.cwd()}`); } } as unknown as App;
    const flog = memoryLogger();
    const s = serve(failing, { hostname: "127.0.0.1", port: 0, log: flog });
    try {
      const reply = await rawRequest(s.port!, "GET /anything HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      expectOurs(reply, 500);
      expect(JSON.parse(reply.body)).toEqual({ error: "server_error", error_description: "internal error" });
      expect(flog.lines.some((l) => l.includes("boom"))).toBe(true);
    } finally {
      s.stop(true);
    }
  });
});

describe("pathOf", () => {
  test("takes the path of absolute and bare URLs, never the query", () => {
    expect(pathOf("http://localhost:8787/oauth/authorize?state=s")).toBe("/oauth/authorize");
    expect(pathOf("/health?x=1")).toBe("/health");
    expect(pathOf("http://[::1]/mcp#f")).toBe("/mcp");
    expect(pathOf("")).toBe("/");
  });
});
