// The MCP tool annotations (hints for clients; MCP specification, "Tool annotations") as a tool
// declares them. Their `title` is not written here: the registry copies the tool's title into them.
// Every choice, and why, is in docs/design.md §6 and docs/tools.md ("Write tools: shared rules").

/** A read tool changes nothing, so a client may call it freely. */
export interface ReadAnnotations {
  readOnlyHint: true;
  destructiveHint: false;
  idempotentHint: boolean;
  /** false only when the tool does not reach the mail server either (list_providers). */
  openWorldHint: boolean;
}

/**
 * A write tool states every hint: where one is missing MCP lets a client assume the worst
 * (destructive, not idempotent, open world), and a wrong guess either way misleads it.
 */
export interface WriteAnnotations {
  readOnlyHint: false;
  /** true when the call may remove or overwrite something, not only add (moving mail out of a folder). */
  destructiveHint: boolean;
  /** true when the same call twice leaves the same state as once. */
  idempotentHint: boolean;
  /** true when the call reaches people or systems beyond the person's own mailbox (sending). */
  openWorldHint: boolean;
}

/** Annotations of the read tools; one that does not reach the mail server sets openWorldHint false (list_providers). */
export const READ_ONLY: ReadAnnotations = {
  readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true,
};
