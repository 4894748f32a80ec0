// The Config the tests (and the bench's server, scripts/bench-server.ts) run with: in a file of its
// own, so that a process needing only the configuration does not load the whole app (./app.ts).
import type { Config } from "../../src/config.ts";

export const TEST_CLIENT_ID = "test-client";
export const TEST_CLIENT_SECRET = "test-client-secret-0123456789abcdef"; // ≥ 32 (MIN_CLIENT_SECRET)

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    baseUrl: "http://localhost",
    host: "127.0.0.1",
    port: 8787,
    dataDir: "/nonexistent",
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    clientHosts: ["claude.ai", "claude.com"],
    siteOrigin: "https://site.example",
    extraRedirectUris: [],
    extraOrigins: [],
    secretKey: new Uint8Array(32).fill(7),
    allowPrivateHosts: true,
    trustProxy: false,
    databaseUrl: null,
    openRegistration: false,
    sendLimits: { perHour: 30, perDay: 200 },
    // Off in tests: a notice in the INBOX on every connect would change what other tests count there.
    notifyGrants: false,
    oauth: { microsoft: null, google: null, file: [] },
    allowedMailboxes: null,
    clientMetadataDocuments: false,
    imapMaxConnections: null,
    version: "0.0.0-test",
    ...overrides,
  };
}
