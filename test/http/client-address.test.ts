// The client address the limits count (src/http/client-address.ts, src/oauth/rate-limits/client-key.ts):
// X-Forwarded-For only behind a trusted proxy, its last hop, and every spelling of one address one key
// (issue 19, item 10: a port, brackets, an IPv4-mapped prefix or leading zeros each got fresh limits).
import { describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { clientAddress } from "../../src/http/client-address.ts";
import { canonicalAddress, clientKey } from "../../src/oauth/rate-limits/client-key.ts";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { testApp } from "../support/app.ts";
import { LOOPBACK, register } from "../oauth/register-flow.ts";

const serverAt = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 1 }) }) as unknown as Server<unknown>;
const server = serverAt("127.0.0.1");
const req = (xff?: string) => new Request("http://localhost/oauth/connect", { headers: xff ? { "x-forwarded-for": xff } : {} });

test("without trust, X-Forwarded-For is ignored (any client can send it)", () => {
  expect(clientAddress(req("203.0.113.9"), server, false)).toBe("127.0.0.1");
});

test("behind a trusted proxy, the last hop counts, not a spoofed first one", () => {
  expect(clientAddress(req("6.6.6.6, 203.0.113.9"), server, true)).toBe("203.0.113.9");
  expect(clientAddress(req(), server, true)).toBe("127.0.0.1");
});

test("no server (app.handle) is 'unknown'", () => {
  expect(clientAddress(req(), null, false)).toBe("unknown");
});

describe("one address, one key", () => {
  const SPELLINGS_V4 = ["192.0.2.8", "192.0.2.8:51234", "[192.0.2.8]:80", "::ffff:192.0.2.8", "[::ffff:192.0.2.8]:443",
    "::FFFF:c000:208", "192.0.2.010", "0300.0.2.8", "3221225992", '"192.0.2.8:1"', " 192.0.2.8 "];
  const SPELLINGS_V6 = ["2001:db8::1", "[2001:db8::1]", "[2001:db8::1]:8443", "2001:DB8:0:0:0:0:0:1", "2001:0db8::0001",
    "2001:db8::1%eth0"];

  test("IPv4 with a port, bracketed, IPv4-mapped, with leading zeros (inet_aton reads them as octal) or as one number", () => {
    for (const s of SPELLINGS_V4) expect([s, canonicalAddress(s)]).toEqual([s, "192.0.2.8"]);
    expect(new Set(SPELLINGS_V4.map(clientKey))).toEqual(new Set(["ip:192.0.2.8"]));
  });

  test("IPv6 bracketed, with a port, upper case, uncompressed or with a zone: one address, counted by /64", () => {
    for (const s of SPELLINGS_V6) expect([s, canonicalAddress(s)]).toEqual([s, "2001:db8::1"]);
    expect(new Set([...SPELLINGS_V6, "2001:db8::ffff:1", "[2001:db8:0:0:1:2:3:4]:1"].map(clientKey))).toEqual(new Set(["ip:2001:db8:0:0::/64"]));
    expect(clientKey("2001:db8:0:1::1")).not.toBe(clientKey("2001:db8::1"));
  });

  test("the socket's own address is canonical too (a dual-stack socket says ::ffff:a.b.c.d)", () => {
    expect(clientAddress(req(), serverAt("::ffff:198.51.100.4"), false)).toBe("198.51.100.4");
  });

  test("a hop that names no address counts against the proxy, not as a new client", () => {
    for (const junk of ["unknown", "_hidden", "example.com:80", "1.2.3.4.5", "[zz]"]) {
      expect([junk, canonicalAddress(junk)]).toEqual([junk, null]);
      expect(clientAddress(req(`203.0.113.9, ${junk}`), server, true)).toBe("127.0.0.1");
    }
  });

  test("through the app: spellings of one address share the registration limit", async () => {
    const { app } = testApp({ openRegistration: true, trustProxy: true });
    const spellings = SPELLINGS_V4.slice(0, LIMITS.register.max);
    expect(spellings).toHaveLength(LIMITS.register.max);
    for (const s of spellings) expect((await register(app, { redirect_uris: [LOOPBACK] }, { "x-forwarded-for": s })).status).toBe(201);
    expect((await register(app, { redirect_uris: [LOOPBACK] }, { "x-forwarded-for": "192.0.2.8:60000" })).status).toBe(429);
    expect((await register(app, { redirect_uris: [LOOPBACK] }, { "x-forwarded-for": "192.0.2.9:60000" })).status).toBe(201);
  });
});
