// The OAuth scopes of this server, written once: the authorization server offers and issues them,
// the store keeps them on grants, /mcp and the write tools check them. Kept at the bottom of the
// layers (with config, log, clock) so that src/store/ may use it too.

/** Reading the mailbox: what every tool of kind "read" needs. */
export const READ_SCOPE = "email:read";
/** Changing the mailbox or sending: what every tool of kind "write" needs (src/mcp/tools/index.ts). */
export const WRITE_SCOPE = "email:write";
/** Every scope this server knows (RFC 8414 `scopes_supported`). */
export const SCOPES = [READ_SCOPE, WRITE_SCOPE];
/** The contract's scope (docs/contract.md §2.3): a grant's unless the person chose read-only (docs/design.md §3). */
export const READ_WRITE_SCOPE = `${READ_SCOPE} ${WRITE_SCOPE}`;
