// Claude.ai (web, desktop and mobile custom connectors) connects only to an https:// server on the
// default port 443; other ports and plain http fail there without a useful message (docs/deploy.md,
// "Behind a reverse proxy"). `mailbox-mcp client` says so when the base URL is anything else.

/** True when the origin is https on port 443 (written with or without ":443"). */
export function reachableByClaudeAi(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.protocol === "https:" && (url.port === "" || url.port === "443");
  } catch {
    return false;
  }
}

/** A closing paragraph for `mailbox-mcp client`, or "" when the base URL already suits Claude.ai. */
export function publicUrlNote(baseUrl: string): string {
  if (reachableByClaudeAi(baseUrl)) return "";
  return `Note: Claude.ai connects only to https:// on port 443, and this server's base URL is ${baseUrl}.\n` +
    "  Local clients (Claude Code, Codex CLI, Gemini CLI, MCP Inspector) work with it as it is. For Claude.ai,\n" +
    "  put the server behind a reverse proxy with HTTPS on 443 (its own subdomain, no buffering on /mcp) and\n" +
    "  set MAILBOX_MCP_BASE_URL to that public URL: see docs/deploy.md.\n";
}
