// What a sending tool hands the send gate (./gate.ts), and what the gate answers: the shapes shared
// by the gate's files and the tools that call it (send_email, send_draft: each builds a SendRequest
// and calls ctx.sending.send()). The answer is protocol-free; src/mcp/confirm/tool-sending.ts
// turns it into an MCP result.
import type { Recipients } from "../mail/compose/recipients.ts";
import type { SendPolicy } from "../send-policy.ts";
import type { ConfirmState } from "./confirmation.ts";
import type { Afterwards, Deliverable } from "./deliver.ts";

/** Where a draft is: its folder path and UID (null only when the server could not say, without UIDPLUS). */
export interface DraftRef {
  folder: string;
  uid: number | null;
}

/** A message that can go out, and what a person deciding about it is shown. */
export interface OutgoingMail extends Deliverable {
  subject: string;
  recipients: Recipients;
  attachments: Array<{ filename: string; size: number }>;
  /** The start of the body as plain text. */
  preview: string;
  /** Once sent: the message answered or forwarded flagged so (./deliver.ts). */
  after: Afterwards;
  /**
   * The tool's words about the message for the model (subject, recipients, what it answers),
   * already fenced where a stranger wrote part of them (src/mcp/tools/write/composed-text.ts).
   */
  describe: string;
  /**
   * The message already is a draft (send_draft): held, it stays where it is; sent, it is removed
   * from there. Otherwise a held message is saved as a new draft.
   */
  draft?: DraftRef;
}

export interface SendRequest {
  /** The tool asking, e.g. "send_email": part of the message's identity. */
  tool: string;
  /**
   * What makes two requests "the same message" for at-most-once delivery (docs/design.md §3): the
   * content as asked for (recipients, subject, bodies, attachments, the message answered), never
   * a generated Message-ID or date. Any JSON value; the store keeps only a keyed hash of it.
   */
  identity: unknown;
  /** Returns exactly what would be sent, without sending. */
  dryRun: boolean;
  /** Builds the message; called at most once per call, when the gate needs it. */
  compose(): Promise<OutgoingMail>;
}

/** How this call ended, as the activity log and the model are told (docs/owner.md §4). */
export type SendDecision = "sent_directly" | "confirmed" | "declined" | "held_as_draft" | "dry_run" | "repeat";

/** What dry_run shows: exactly what would be sent, and what the policy would do with it. */
export interface SendPreview {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** Size of the whole message in bytes, as it would go over SMTP. */
  size: number;
  attachments: Array<{ filename: string; size: number }>;
  policy: SendPolicy;
  /** Whether the person would be asked first. */
  would_ask: boolean;
  /** Recipients this mailbox has never written to. */
  new_recipients: string[];
}

/** The sending tools' answer (docs/design.md §6). */
export interface SendResult {
  status: "sent" | "held_as_draft" | "dry_run";
  decision: SendDecision;
  message_id: string | null;
  accepted: string[];
  rejected: string[];
  saved_to: string | null;
  draft: DraftRef | null;
  reason: string | null;
  preview: SendPreview | null;
  /** The From address it was sent from (or would be: a dry run), or null. */
  from: string | null;
}

/** What the review card shows of a held message (for the app beside the result, not the model). */
export interface ReviewView {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  preview: string;
  attachments: Array<{ filename: string; size: number }>;
  new_recipients: string[];
}

/**
 * What the gate answers: a result (sent, held, a dry run, a repeat; a held message for a host that
 * renders the review card also carries the card's token and view), a refusal in words (nothing was
 * sent), or a question for the person (its state, to be signed, and what to show them).
 */
export type GateAnswer =
  | { kind: "result"; result: SendResult; text: string; review?: { token: string; message: ReviewView } }
  | { kind: "refused"; text: string }
  | { kind: "ask"; state: ConfirmState; mail: OutgoingMail; fresh: string[] };
