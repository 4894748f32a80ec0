// The two errors the mail layer throws on purpose. Tools turn both into answers the caller can act on
// (src/mcp/tools/result.ts); anything else thrown is a bug and is reported as "internal error".

export type MailErrorKind = "auth" | "unreachable" | "tls" | "timeout" | "protocol" | "not_found" | "invalid";

/** A mail-server failure with a message fit for a person or a model: what happened and what to do. */
export class MailError extends Error {
  constructor(readonly kind: MailErrorKind, message: string) {
    super(message);
    this.name = "MailError";
  }
}

/** A bad tool argument, named so the error tells the caller which one to fix. */
export class InputError extends Error {
  constructor(readonly argument: string, message: string) {
    super(`${argument}: ${message}`);
    this.name = "InputError";
  }
}
