// The per-client steps of the connect guide (./connect-guide.ts): for each client the shortest path that
// works with this configuration. Each recipe was run with the real client against a loopback server
// (README "Connecting MCP clients" names the versions): Claude Code, Codex CLI and Gemini CLI sign in
// with the configured client id and secret as well as by registering themselves. `code` spans are
// marked with backticks.
import { sameLoopbackAnyPortOrName } from "../oauth/protocol/redirects.ts";
import type { GuideSettings } from "./guide-settings.ts";

export interface GuideClient {
  /** e.g. "Claude.ai (Settings → Connectors → Add custom connector)". */
  title: string;
  steps: string[];
}

const CHATGPT_CALLBACK = "https://chatgpt.com/connector_platform_oauth_redirect";
const INSPECTOR = "MCP Inspector (`npx @modelcontextprotocol/inspector`)";
/** Open registration and metadata documents let anyone bring an app: the owner must say whose mailboxes are served (docs/oauth.md §10). */
export const ALLOWLIST_HINT = "`MAILBOX_MCP_ALLOWED_MAILBOXES` (whose mailboxes it serves: your address, `@your-domain`, your mail host, or `*` for anyone)";

/**
 * The loopback callbacks the command-line clients use with the configured client, each on a port of its
 * choosing: Claude Code and Codex CLI `…/callback` (Codex says 127.0.0.1), Gemini CLI `…/oauth/callback`.
 * A loopback entry matches any port and loopback name (docs/design.md §3), so these two cover all three.
 */
export const CLI_CALLBACKS = ["http://localhost/callback", "http://localhost/oauth/callback"];

/** "(already set here)" or what to add, for the operator reading the guide. */
function callbacksState(s: GuideSettings, needed: string[]): string {
  const missing = needed.filter((uri) => !s.extraRedirectUris.some((listed) => listed === uri || sameLoopbackAnyPortOrName(listed, uri)));
  if (missing.length === 0) return "(already set here)";
  return `(not set yet: add \`${missing.join(",")}\` to \`MAILBOX_MCP_EXTRA_REDIRECT_URIS\`, and restart the server)`;
}

export function openClients(s: GuideSettings, mcp: string): GuideClient[] {
  const chatgpt = s.extraRedirectUris.includes(CHATGPT_CALLBACK) ? "(already set here)" : "(not set yet: add it, and restart the server)";
  return [
    { title: "Claude.ai (Settings → Connectors → Add custom connector)", steps: [
      `URL: \`${mcp}\` — nothing else: Claude registers itself. (The Client ID and secret above under Advanced settings work too.)`,
      "Claude.ai reaches your server from the internet: put it behind HTTPS (see README).",
    ] },
    { title: "Claude Code", steps: [
      `Run \`claude mcp add --transport http mailbox ${mcp}\`, then \`claude mcp login mailbox\` (or \`/mcp\` in Claude Code) to sign in.`,
      "It registers itself as a public client with a loopback callback (any port); no id or secret to pass.",
    ] },
    { title: "Codex CLI", steps: [
      `Run \`codex mcp add mailbox --url ${mcp}\`: it registers itself and opens the sign-in at once (later: \`codex mcp login mailbox\`).`,
    ] },
    { title: "Gemini CLI", steps: [
      `Run \`gemini mcp add --transport http mailbox ${mcp}\` in a folder Gemini CLI trusts, then \`/mcp auth mailbox\` in Gemini CLI.`,
      "It registers itself with a loopback callback; nothing else to configure.",
    ] },
    { title: INSPECTOR, steps: [
      `Transport: Streamable HTTP, URL \`${mcp}\`, connect. It registers itself with the callback of the address you opened it at.`,
    ] },
    { title: "VS Code (MCP: Add Server → HTTP)", steps: [
      `URL \`${mcp}\` alone; the desktop app signs in through a loopback callback.`,
      "In a browser or remote window it uses `https://vscode.dev/redirect`, which must then be in `MAILBOX_MCP_EXTRA_REDIRECT_URIS`.",
    ] },
    { title: "ChatGPT (Settings → Connectors, developer mode)", steps: [
      `URL \`${mcp}\` alone, once the server allows its callback: \`MAILBOX_MCP_EXTRA_REDIRECT_URIS=${CHATGPT_CALLBACK}\` ${chatgpt}`,
    ] },
  ];
}

export function closedClients(s: GuideSettings, mcp: string, secret: string): GuideClient[] {
  const callbacks = (needed: string) => `It signs in through a loopback callback on a port of its own: \`${needed}\` must be in \`MAILBOX_MCP_EXTRA_REDIRECT_URIS\` ${callbacksState(s, [needed])}.`;
  return [
    { title: "Claude.ai (Settings → Connectors → Add custom connector)", steps: [
      `URL: \`${mcp}\``,
      `Advanced settings → OAuth Client ID: \`${s.clientId}\`, OAuth Client Secret: \`${secret}\``,
      "Claude.ai reaches your server from the internet: put it behind HTTPS (see README).",
    ] },
    { title: "Claude Code", steps: [
      `Run \`MCP_CLIENT_SECRET=${secret} claude mcp add --transport http --client-id ${s.clientId} --client-secret mailbox ${mcp}\` ` +
        "(without MCP_CLIENT_SECRET it asks for the secret), then `claude mcp login mailbox` (or `/mcp` in Claude Code) to sign in.",
      callbacks(CLI_CALLBACKS[0]!),
    ] },
    { title: "Codex CLI", steps: [
      `Run \`codex mcp add mailbox --url ${mcp} --oauth-client-id ${s.clientId} --oauth-client-secret ${secret}\`: it opens the sign-in at once (later: \`codex mcp login mailbox\`).`,
      callbacks(CLI_CALLBACKS[0]!),
    ] },
    { title: "Gemini CLI", steps: [
      `Run \`gemini mcp add --transport http mailbox ${mcp}\`, then add to that server's entry in \`.gemini/settings.json\`: ` +
        `\`"oauth": {"enabled": true, "clientId": "${s.clientId}", "clientSecret": "${secret}"}\`, and run \`/mcp auth mailbox\` in Gemini CLI.`,
      callbacks(CLI_CALLBACKS[1]!),
    ] },
    { title: INSPECTOR, steps: [
      "Open `http://localhost:6274` (not the 127.0.0.1 address its banner prints: only the localhost callback is allowed).",
      `Transport: Streamable HTTP, URL \`${mcp}\`.`,
      `Under Settings ▸ OAuth Settings (Inspector 1.x: Authentication) set Client ID \`${s.clientId}\` and Client Secret \`${secret}\`.`,
      "In direct (browser) mode also start the server with `MAILBOX_MCP_EXTRA_ORIGINS=http://localhost:6274`.",
    ] },
    { title: "ChatGPT and VS Code", steps: [`They register themselves: start the server with \`--open-registration\` and ${ALLOWLIST_HINT}.`] },
  ];
}

/** With client metadata documents on, clients that have a document use it instead of registering. */
export const DOCUMENTS_NOTE = "Client metadata documents are on: a client that publishes one (Claude Code: " +
  "`https://claude.ai/oauth/claude-code-client-metadata`) signs in with it instead of registering, so this server " +
  "must be able to fetch it over HTTPS.";
