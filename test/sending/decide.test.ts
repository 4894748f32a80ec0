// The send gate's decision over plain facts (src/sending/decide.ts): no mailbox, store or MCP types.
import { describe, expect, test } from "bun:test";
import { admit, decide, type Facts } from "../../src/sending/decide.ts";

const base: Facts = { policy: "new_recipients", dryRun: false, handledBefore: false, answer: null, fresh: [], channel: "none", cap: null };
const cap = { window: "hour" as const, max: 30, waitMs: 60_000 };

describe("decide", () => {
  test("refuses a revoked grant and a never-send policy, before anything is built", () => {
    expect(admit({ policy: null, dryRun: false, handledBefore: false, answer: null })).toEqual({ kind: "refuse", why: "revoked" });
    expect(admit({ policy: "never", dryRun: false, handledBefore: false, answer: null })).toEqual({ kind: "refuse", why: "never" });
    // A dry run under "never" says what would happen; a person keeping a reviewed draft sends nothing.
    expect(admit({ policy: "never", dryRun: true, handledBefore: false, answer: null })).toBeNull();
    expect(admit({ policy: "never", dryRun: false, handledBefore: false, answer: "keep" })).toBeNull();
  });

  test("a message handled in the window is a repeat, unless this is a dry run", () => {
    expect(admit({ policy: "direct", dryRun: false, handledBefore: true, answer: null })).toEqual({ kind: "repeat" });
    expect(decide({ ...base, dryRun: true, handledBefore: true })).toEqual({ kind: "dry_run", wouldAsk: false });
  });

  test("sends without asking when the policy does not ask", () => {
    expect(decide({ ...base, policy: "direct", fresh: ["x@example.net"] })).toEqual({ kind: "send", decision: "sent_directly" });
    expect(decide({ ...base, policy: "new_recipients", fresh: [] })).toEqual({ kind: "send", decision: "sent_directly" });
  });

  test("asks by elicitation, holds for the review card or with no way to ask", () => {
    const asking = { ...base, policy: "always" as const };
    expect(decide({ ...asking, channel: "elicitation" })).toEqual({ kind: "ask" });
    expect(decide({ ...asking, channel: "app" })).toEqual({ kind: "hold", how: "app" });
    expect(decide({ ...asking, channel: "none" })).toEqual({ kind: "hold", how: "no_channel" });
    expect(decide({ ...base, fresh: ["new@example.net"], channel: "elicitation" })).toEqual({ kind: "ask" });
  });

  test("the person's answer decides, and a full cap refuses before the person is asked", () => {
    const asking = { ...base, policy: "always" as const, channel: "elicitation" as const };
    expect(decide({ ...asking, answer: "send" })).toEqual({ kind: "send", decision: "confirmed" });
    expect(decide({ ...asking, answer: "keep" })).toEqual({ kind: "hold", how: "declined" });
    expect(decide({ ...asking, cap })).toEqual({ kind: "refuse", why: "cap", cap });
    expect(decide({ ...asking, dryRun: true, cap })).toEqual({ kind: "dry_run", wouldAsk: true });
  });
});
