// `bun run bench`, BENCH_ONLY=signin (issue 22): what renewing a signed-in mailbox's access token costs a
// call, and that calls in between pay nothing. A test server in this process signs in at the fake OAuth
// provider on loopback (test/support/fake-oauth/), then draft_email (a call that needs the credentials)
// is timed in two ways, interleaved: with the token fresh, and with the server's clock moved past the
// renewal time before each call, so that every such call renews (a token-endpoint round trip on loopback,
// the new tokens sealed and written under the grant's lock). The count of renewals must equal the
// number of the second kind of calls exactly: the first kind renews never.
import type { Harness } from "../test/support/harness.ts";
import { connectClient, startTestServer } from "../test/support/mcp-client.ts";
import { signedInToken } from "../test/oauth/sign-in-flow.ts";
import { ITERATIONS, WARMUP, ms, sdkCaller, timeTogether, verdict } from "./bench-lib.ts";

export async function signInRows(h: Harness): Promise<void> {
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  let now = () => Date.now();
  // One-minute tokens: the clock moves 49 s per renewing call, well inside the MCP session's 30 idle minutes.
  const fake = h.oauth.client({ redirectUris: [], accessTtlS: 60, clock: () => now() });
  const srv = await startTestServer({ config: { oauth: { microsoft: null, google: null, file: [fake.settings(mail, { id: "bench" })] } } });
  fake.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
  now = () => srv.deps.clock();
  const client = await connectClient(srv.mcpUrl, await signedInToken(srv.baseUrl, "bench"));
  const m = sdkCaller(client);
  const draft = () => m.call("draft_email", { to: "bob@example.test", subject: "bench", text: "Hello from the bench." });
  try {
    const before = fake.counts.refreshes;
    const [fresh, renewing] = await timeTogether([
      draft,
      async () => { srv.deps.clock.advance(49_000); await draft(); }, // past the renewal time (48 s of 60)
    ]);
    const renewals = fake.counts.refreshes - before;
    const expected = WARMUP + ITERATIONS;
    console.log(`\nsigned-in mailbox (fake OAuth provider on loopback, 1-minute tokens), draft_email through MCP (SDK client):`);
    console.log(`  token fresh (no renewal)        p50/p95 ${ms(fresh!.p50)}/${ms(fresh!.p95)} ms`);
    console.log(`  token due (renewed in the call) p50/p95 ${ms(renewing!.p50)}/${ms(renewing!.p95)} ms  (+${ms(renewing!.p50 - fresh!.p50)} ms)`);
    console.log(`  renewals: ${renewals} for ${expected} due calls, none for the ${expected} in between  ${verdict(renewals === expected)}`);
  } finally {
    await client.close();
    await srv.stop();
  }
}
