// A provider's token and userinfo answers are read with a 64 KiB cap before parsing (issue 41, item
// 3): a 150 MB answer, streamed, makes the sign-in fail with words, and the server's memory grows by
// less than 20 MB (before, the token answer was read whole and checked after; userinfo had no cap).
import { afterAll, describe, expect, test } from "bun:test";
import { learnAddress } from "../../src/oauth/provider-sign-in/address.ts";
import { UpstreamError } from "../../src/oauth/provider-sign-in/errors.ts";
import type { OAuthProvider } from "../../src/oauth/provider-sign-in/provider.ts";
import { exchangeCode } from "../../src/oauth/provider-sign-in/token-client.ts";

const HUGE = 150 * 1024 * 1024;
const CHUNK = new Uint8Array(1024 * 1024).fill(0x20); // spaces: valid JSON whitespace, as long as it goes on

/** An endpoint whose answer is `{"access_token": "…",` then 150 MB, streamed, without a length. */
const huge = Bun.serve({
  hostname: "127.0.0.1", port: 0,
  fetch() {
    let sent = 0;
    const body = new ReadableStream({
      pull(c) {
        if (sent === 0) c.enqueue(new TextEncoder().encode('{"access_token":"x","email":"a@example.test",'));
        if (sent >= HUGE) return c.close();
        sent += CHUNK.byteLength;
        c.enqueue(CHUNK);
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
});
afterAll(() => huge.stop(true));

const provider = {
  id: "huge", name: "Huge", tokenEndpoint: `http://127.0.0.1:${huge.port}/token`, userinfoEndpoint: `http://127.0.0.1:${huge.port}/userinfo`,
  clientId: "c", clientSecret: null, scopes: ["openid"], addressFrom: "userinfo",
} as unknown as OAuthProvider;

async function rssGrowth(fn: () => Promise<unknown>): Promise<{ err: unknown; mb: number }> {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  const err = await fn().then(() => null, (e: unknown) => e);
  const mb = (process.memoryUsage().rss - before) / 1024 / 1024;
  return { err, mb };
}

describe("provider answers are capped before parsing", () => {
  test("a 150 MB token answer: the sign-in fails with a message; RSS grows < 20 MB", async () => {
    const { err, mb } = await rssGrowth(() => exchangeCode(provider, "code", "verifier", "http://localhost/cb"));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toContain("more than 64 KiB");
    expect(mb).toBeLessThan(20);
  }, 30_000);

  test("a 150 MB userinfo answer: the sign-in fails with a message; RSS grows < 20 MB", async () => {
    const tokens = { accessToken: "t", refreshToken: "r", expiresIn: 3600, idToken: null };
    const { err, mb } = await rssGrowth(() => learnAddress(provider, tokens, ""));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toContain("more than 64 KiB");
    expect(mb).toBeLessThan(20);
  }, 30_000);
});
