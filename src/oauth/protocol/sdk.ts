// The MCP server SDK for the OAuth side (the Bearer check and its challenges, the protected resource
// document), loaded on first use and kept: an idle server holds none of it (docs/performance.md "Idle
// memory"), and once it is loaded a request does not wait for the import again.
export type Sdk = typeof import("@modelcontextprotocol/server");

let loaded: Sdk | undefined;

export const loadSdk = async (): Promise<Sdk> => loaded ?? (loaded = await import("@modelcontextprotocol/server"));
