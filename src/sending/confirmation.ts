// What a confirmation is, apart from how it travels (docs/design.md §3 "Send policy"): which way a
// client can ask the person, the values a question and a review card carry, and how long each is
// good for. The protocol side (MCP elicitation, the MCP App review card, the signed codecs) is
// src/mcp/confirm/; it carries these values and hands the answers back.
import type { Afterwards } from "./deliver.ts";

/**
 * How this client can let the person confirm a send: "elicitation" (asked inside the client, within
 * the call), "app" (a review card the host renders beside the result), "none" (held as a draft).
 */
export type ConfirmChannel = "elicitation" | "app" | "none";

/** A question put to the person: its single-use nonce and the digest of the message asked about. */
export interface ConfirmState {
  n: string;
  d: string;
}

/** A review card: nonce, digest, the held draft, its Message-ID and envelope, and the tool that held it. */
export interface ReviewClaim {
  n: string;
  d: string;
  tool: string;
  folder: string;
  uid: number;
  messageId: string;
  envelope: { from: string; to: string[] };
  /** Once sent: the message it answers or forwards, flagged so (./deliver.ts). */
  after: Afterwards;
  /** The mailbox of the connection it is held in (its position); absent on tokens minted before several mailboxes: the first. */
  m?: number;
}

/** The person's answer a request carries, as the protocol side read it: send, keep, or none given. */
export type PersonAnswer = "send" | "keep" | "missing";

/** A question lives as long as the at-most-once window: a retry after that is a new request. */
export const STATE_TTL_MS = 10 * 60_000;
/** The card may be looked at later in the conversation; the draft it points at must still be there. */
export const REVIEW_TTL_MS = 24 * 3_600_000;
