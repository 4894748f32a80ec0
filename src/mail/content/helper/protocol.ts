// What the server and a content helper process agree on across the process boundary
// (docs/decisions.md "Content helpers"): the argument that makes the executable a helper, and the
// environment variable that tells it its memory ceiling. A leaf, so that the helper's side
// (./memory-guard.ts) and the server's side (./spawn.ts) share them without importing each other.

/** The argument that makes the executable a helper instead of the server. */
export const HELPER_FLAG = "--content-helper";

/** The helper's memory ceiling in MB, set by ./spawn.ts, read by ./memory-guard.ts in the helper. */
export const MEMORY_ENV = "MAILBOX_MCP_HELPER_MEMORY_MB";
