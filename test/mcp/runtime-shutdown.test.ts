// What a runtime's shutdown (src/mcp/runtime.ts close(), run by the service's stop) leaves running:
// nothing that outlives the store it reads. In-memory store, no servers.
import { expect, test } from "bun:test";
import { testDeps } from "../support/app.ts";

test("an answer relay waiting on a client's answer stops polling the store at shutdown", async () => {
  const deps = testDeps();
  const relay = deps.runtime.relay!;
  relay.asked("session-1", 7, async () => {}); // an elicitation sent, its answer not in yet
  expect(relay.watching).toBe(true);
  await deps.runtime.close();
  // Before: its 250 ms poll ran on for up to 11 minutes, against a store closed with the service.
  expect(relay.watching).toBe(false);
  expect(relay.waitsHere("session-1", [7])).toBe(false);
});
