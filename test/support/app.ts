// Builds the real app on an in-memory store with a manual clock, for app.handle() tests.
import { manualClock } from "../../src/clock.ts";
import type { Config } from "../../src/config.ts";
import { createApp, type AppDeps } from "../../src/http/app.ts";
import { memoryLogger } from "../../src/log.ts";
import { openDatabase } from "../../src/store/db.ts";
import { ActivityLog } from "../../src/store/activity.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { TokenEvents } from "../../src/oauth/token-events.ts";
import { ClientRegistry } from "../../src/oauth/clients.ts";
import { CLIENT_IDLE_MS } from "../../src/oauth/registration.ts";
import { ClientStore } from "../../src/store/clients.ts";
import { ImapPool } from "../../src/mail/imap-pool.ts";
import { SessionStore } from "../../src/mcp/sessions.ts";
import type { LegacySession } from "../../src/mcp/legacy-session.ts";
import { SessionRows } from "../../src/store/mcp-sessions.ts";
import { ToolCallLimiter } from "../../src/mcp/call-limit.ts";
import { SendBudget } from "../../src/mcp/send-budget.ts";
import type { McpLimits } from "../../src/mcp/runtime.ts";

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
    openRegistration: false,
    version: "0.0.0-test",
    ...overrides,
  };
}

export function testDeps(overrides: Partial<Config> = {}, limits: McpLimits = {}) {
  const config = testConfig(overrides);
  const clock = manualClock(Date.now());
  const log = memoryLogger();
  const db = openDatabase(":memory:");
  const grants = new GrantStore(db, config.secretKey, clock);
  const clients = new ClientRegistry(config, new ClientStore(db, clock, CLIENT_IDLE_MS));
  const activity = new ActivityLog(db, config.secretKey, clock);
  const events = new TokenEvents();
  const imap = new ImapPool(clock, log);
  const sessions = new SessionStore<LegacySession>(new SessionRows(db), clock, log, limits.sessions);
  const calls = new ToolCallLimiter(limits.calls);
  const sendBudget = new SendBudget(limits.attachmentBytesInFlight);
  return { config, clock, log, db, grants, clients, activity, events, imap, sessions, calls, sendBudget } satisfies AppDeps & Record<string, unknown>;
}

export function testApp(overrides: Partial<Config> = {}) {
  const deps = testDeps(overrides);
  return { ...deps, app: createApp(deps) };
}
