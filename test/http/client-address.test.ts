import { expect, test } from "bun:test";
import type { Server } from "bun";
import { clientAddress } from "../../src/http/client-address.ts";

const server = { requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 1 }) } as unknown as Server<unknown>;
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
