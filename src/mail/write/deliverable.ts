// A built message ready to go out (composed by ./assemble.ts, or a saved draft made sendable by
// ./draft/wire-bytes.ts): the mail layer makes it, the send gate (src/sending/deliver.ts) hands it to SMTP.

/** `stored` keeps the Bcc header (the Sent copy), `wire` has none (what SMTP carries). */
export interface Deliverable {
  messageId: string;
  stored: Buffer;
  wire: Buffer;
  envelope: { from: string; to: string[] };
}
