// Where a mailbox's \Sent folder stood when a grant was made (docs/design.md §3 "Send policy"): the
// mail side takes it (src/mail/imap/sent-mark.ts), the store keeps it (src/store/sent-marks.ts), the
// send gate reads \Sent only below it (src/sending/known-recipients.ts). UIDs are never reused within
// a UIDVALIDITY (RFC 9051 §2.3.1.1), so a message placed in \Sent after the mark has a UID at or
// above `uidNext` and can never pass for one the person sent before.

export interface SentMark {
  /** The \Sent folder's path then; null when the mailbox had none (then nothing in \Sent counts). */
  path: string | null;
  uidValidity: number;
  /** Messages with a UID below this were in \Sent before the grant. */
  uidNext: number;
}

/** "The mailbox had no \Sent folder": nothing in \Sent makes anyone known. */
export const NO_SENT: SentMark = { path: null, uidValidity: 0, uidNext: 1 };
