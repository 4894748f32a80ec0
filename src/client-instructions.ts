// What `mailbox-mcp client` prints: for each MCP client the shortest path that works with this
// configuration (README "Connecting MCP clients" says the same; docs/oauth.md §9 says why).
import type { Config } from "./config.ts";

const CHATGPT_CALLBACK = "https://chatgpt.com/connector_platform_oauth_redirect";

function header(config: Config): string {
  const registration = config.openRegistration
    ? "on: clients that register themselves need only the URL"
    : "off (start with --open-registration for Claude Code, ChatGPT and VS Code)";
  return `mailbox-mcp client settings

  MCP server URL    : ${config.baseUrl}/mcp
  Open registration : ${registration}
  Client ID         : ${config.clientId}
  Client secret     : ${config.clientSecret}

The URL must be exactly the public origin in MAILBOX_MCP_BASE_URL (${config.baseUrl}):
clients refuse a server whose metadata names another origin (localhost vs 127.0.0.1 included).
`;
}

function openPaths(config: Config): string {
  const mcp = `${config.baseUrl}/mcp`;
  const chatgpt = config.extraRedirectUris.includes(CHATGPT_CALLBACK)
    ? "(already set here)"
    : "(not set yet: add it, and restart the server)";
  return `
Claude.ai (Settings → Connectors → Add custom connector):
  URL: ${mcp} — nothing else: Claude registers itself. (The Client ID and secret above
  under Advanced settings work too.) Claude.ai reaches your server from the internet: put it
  behind HTTPS (see README).

Claude Code:
  claude mcp add --transport http mailbox ${mcp}
  then run /mcp in Claude Code to sign in. It registers itself as a public client with a
  loopback callback (http://localhost:PORT/callback, any port); no id or secret to pass.

MCP Inspector (npx @modelcontextprotocol/inspector):
  Streamable HTTP, URL ${mcp}, connect. It registers itself with the callback of the
  address you opened it at (127.0.0.1 or localhost, any port).

VS Code (MCP: Add Server → HTTP): URL ${mcp} alone; the desktop app signs in through a
  loopback callback. (In a browser or remote window it uses https://vscode.dev/redirect, which
  must then be in MAILBOX_MCP_EXTRA_REDIRECT_URIS.)
ChatGPT (Settings → Connectors, developer mode): URL ${mcp} alone, once the server allows
  its callback: MAILBOX_MCP_EXTRA_REDIRECT_URIS=${CHATGPT_CALLBACK} ${chatgpt}
`;
}

function closedPaths(config: Config): string {
  const mcp = `${config.baseUrl}/mcp`;
  return `
Claude.ai (Settings → Connectors → Add custom connector):
  URL: ${mcp}
  Advanced settings → OAuth Client ID: ${config.clientId}
                      OAuth Client Secret: ${config.clientSecret}
  Claude.ai reaches your server from the internet: put it behind HTTPS (see README).

Claude Code: needs open registration. Claude Code registers itself whenever the server's metadata
  has no registration_endpoint, even when given --client-id, and stops with "Incompatible auth
  server: does not support dynamic client registration". Start the server with --open-registration
  (MAILBOX_MCP_OPEN_REGISTRATION=true), then: claude mcp add --transport http mailbox ${mcp}

MCP Inspector (npx @modelcontextprotocol/inspector):
  Open http://localhost:6274 (not the 127.0.0.1 address its banner prints: only the localhost
  callback is allowed). Transport: Streamable HTTP, URL ${mcp}; give it the Client ID and
  Client Secret above. In direct (browser) mode also start the server with
  MAILBOX_MCP_EXTRA_ORIGINS=http://localhost:6274.

ChatGPT and VS Code register themselves: start the server with --open-registration.
`;
}

export function clientInstructions(config: Config): string {
  return header(config) + (config.openRegistration ? openPaths(config) : closedPaths(config));
}
