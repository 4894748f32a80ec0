// The per-process cache of live 2025-era sessions (src/mcp/transport/sessions.ts) over the rows of an
// in-memory store: what it rebuilds, and how often.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { manualClock } from "../../src/clock.ts";
import { memoryLogger } from "../../src/log.ts";
import { SessionStore } from "../../src/mcp/transport/sessions.ts";
import { sessionKey } from "../../src/store/mcp-sessions.ts";
import { memoryStore } from "../../src/store/store.ts";
import { USERS } from "../support/dovecot.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

describe("rebuilding a session this process does not hold", () => {
  test("two requests arriving together rebuild it once; both get the one that is kept, and it is the one closed", async () => {
    const clock = manualClock();
    const store = memoryStore(randomBytes(32), clock);
    const { tokenId } = await issueTestGrant(store, testAccount(USERS.alice, { host: "localhost", port: 1 }));
    const sessionId = randomBytes(16).toString("hex");
    await store.sessions.insert(sessionKey(sessionId), tokenId, "{}", clock()); // opened by another instance, or before a restart
    const sessions = new SessionStore(store.sessions, clock, memoryLogger());
    const built: Array<{ closed: boolean; close(): Promise<void> }> = [];
    const restore = async () => {
      const live = { closed: false, async close() { this.closed = true; } };
      built.push(live);
      return live;
    };
    // A client coming back after a restart: its GET stream and its next POST at once.
    const [a, b] = await Promise.all([sessions.use(sessionId, tokenId, restore), sessions.use(sessionId, tokenId, restore)]);
    // Before: both rebuilt it; the cache kept the second, and the first (with the GET's stream) was never closed.
    expect(built).toHaveLength(1);
    expect(a).toBe(b);
    await sessions.closeToken(tokenId);
    expect(built.map((l) => l.closed)).toEqual([true]);
  });
});
