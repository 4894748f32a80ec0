// The send gate's decision (docs/design.md §3 "Send policy"), over plain facts and nothing else, so
// that it can be read and tested without a mailbox, a store or a protocol. ./gate.ts gathers the
// facts in order (the policy and the ledger before the message is built, the new recipients, the
// person's answer and the caps after) and does what the decision says.
import type { SendPolicy } from "../send-policy.ts";
import type { CapRefusal } from "./caps.ts";
import type { ConfirmChannel } from "./confirmation.ts";

export type HoldHow = "declined" | "app" | "no_channel";

export type Decision =
  | { kind: "refuse"; why: "revoked" | "never" }
  | { kind: "refuse"; why: "cap"; cap: CapRefusal }
  | { kind: "repeat" }
  | { kind: "dry_run"; wouldAsk: boolean }
  | { kind: "send"; decision: "sent_directly" | "confirmed" }
  | { kind: "ask" }
  | { kind: "hold"; how: HoldHow };

/** What is known before the message is built. */
export interface Admission {
  /** The grant's send policy; null when the grant is gone (revoked meanwhile). */
  policy: SendPolicy | null;
  dryRun: boolean;
  /** The at-most-once ledger holds this message (handled, or being sent, in the window). */
  handledBefore: boolean;
  /** The person's answer this request carries (a retried round, a review card's click), else null. */
  answer: "send" | "keep" | null;
}

export interface Facts extends Admission {
  policy: SendPolicy;
  /** Recipients this mailbox never wrote to (looked up only under "new_recipients"). */
  fresh: readonly string[];
  channel: ConfirmChannel;
  /** A full send cap, when it was looked at (a dry run, or before asking the person). */
  cap: CapRefusal | null;
}

/** Refused or a repeat before anything is built; null: go on and build the message. */
export function admit(f: Admission): Decision | null {
  if (f.policy === null) return { kind: "refuse", why: "revoked" };
  // "never" sends nothing; a person keeping a reviewed draft sends nothing either.
  if (f.policy === "never" && !f.dryRun && f.answer !== "keep") return { kind: "refuse", why: "never" };
  if (f.handledBefore && !f.dryRun) return { kind: "repeat" };
  return null;
}

/** Whether the policy asks the person about this message. */
export function mustAsk(policy: SendPolicy, fresh: readonly string[]): boolean {
  return policy === "always" || (policy === "new_recipients" && fresh.length > 0);
}

export function decide(f: Facts): Decision {
  const early = admit(f);
  if (early) return early;
  if (f.dryRun) return { kind: "dry_run", wouldAsk: mustAsk(f.policy, f.fresh) };
  if (f.answer === "keep") return { kind: "hold", how: "declined" };
  if (f.answer === "send") return { kind: "send", decision: "confirmed" };
  if (!mustAsk(f.policy, f.fresh)) return { kind: "send", decision: "sent_directly" };
  if (f.cap) return { kind: "refuse", why: "cap", cap: f.cap };
  if (f.channel === "elicitation") return { kind: "ask" };
  return { kind: "hold", how: f.channel === "app" ? "app" : "no_channel" };
}
