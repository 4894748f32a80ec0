// How to connect each MCP client, as data: `mailbox-mcp client` prints it as text with the client
// secret, the front door (GET /) renders it as HTML without (docs/design.md §3). For each client the
// shortest path that works with this configuration (README "Connecting MCP clients"; docs/oauth.md
// §9 says why Claude Code needs open registration). `code` spans are marked with backticks; the
// text rendering drops them.
import { describeAllowedMailboxes, type AllowedMailboxes } from "../allowed-mailboxes.ts";

export interface GuideClient {
  /** e.g. "Claude.ai (Settings → Connectors → Add custom connector)". */
  title: string;
  steps: string[];
}

export interface ConnectGuide {
  mcpUrl: string;
  clientId: string;
  /** The secret, or where to get it when it must not be shown. */
  secret: string;
  secretShown: boolean;
  openRegistration: boolean;
  /** Whose mailboxes may be connected, in words; only for `mailbox-mcp client` (the front door never shows it). */
  mailboxes: string | null;
  note: string;
  clients: GuideClient[];
  /** The OAuth mail providers people can sign in at on the setup page (docs/oauth-providers.md), and where to read more. */
  signIn: { providers: string[]; note: string };
}

export interface GuideSettings {
  baseUrl: string;
  clientId: string;
  /** null where the secret must not be shown (the front door). */
  clientSecret: string | null;
  openRegistration: boolean;
  extraRedirectUris: string[];
  /** Labels of the OAuth mail providers configured (none: only app passwords). */
  signInProviders?: string[];
  /** Given only to `mailbox-mcp client`: the operator may see the list, the public front door not. */
  allowedMailboxes?: AllowedMailboxes | null;
}

/** Where the secret is when a page must not show it. */
export const SECRET_ELSEWHERE = "run `mailbox-mcp client` on the server (from a checkout: `bun run start client`)";
const CHATGPT_CALLBACK = "https://chatgpt.com/connector_platform_oauth_redirect";

const INSPECTOR = "MCP Inspector (`npx @modelcontextprotocol/inspector`)";
/** Open registration lets anyone register an app, so the owner must say whose mailboxes are served (docs/oauth.md §10). */
const ALLOWLIST_HINT = "`MAILBOX_MCP_ALLOWED_MAILBOXES` (whose mailboxes it serves: your address, `@your-domain`, your mail host, or `*` for anyone)";

function openClients(s: GuideSettings, mcp: string): GuideClient[] {
  const chatgpt = s.extraRedirectUris.includes(CHATGPT_CALLBACK) ? "(already set here)" : "(not set yet: add it, and restart the server)";
  return [
    { title: "Claude.ai (Settings → Connectors → Add custom connector)", steps: [
      `URL: \`${mcp}\` — nothing else: Claude registers itself. (The Client ID and secret above under Advanced settings work too.)`,
      "Claude.ai reaches your server from the internet: put it behind HTTPS (see README).",
    ] },
    { title: "Claude Code", steps: [
      `Run \`claude mcp add --transport http mailbox ${mcp}\`, then \`/mcp\` in Claude Code to sign in.`,
      "It registers itself as a public client with a loopback callback (any port); no id or secret to pass.",
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

function closedClients(s: GuideSettings, mcp: string, secret: string): GuideClient[] {
  return [
    { title: "Claude.ai (Settings → Connectors → Add custom connector)", steps: [
      `URL: \`${mcp}\``,
      `Advanced settings → OAuth Client ID: \`${s.clientId}\`, OAuth Client Secret: \`${secret}\``,
      "Claude.ai reaches your server from the internet: put it behind HTTPS (see README).",
    ] },
    { title: "Claude Code: needs open registration", steps: [
      "Claude Code registers itself whenever the server's metadata has no registration_endpoint, even when given --client-id, " +
        "and stops with \"Incompatible auth server: does not support dynamic client registration\".",
      `Start the server with \`--open-registration\` (\`MAILBOX_MCP_OPEN_REGISTRATION=true\`) and ${ALLOWLIST_HINT}, then run \`claude mcp add --transport http mailbox ${mcp}\`.`,
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

export function connectGuide(s: GuideSettings): ConnectGuide {
  const mcp = `${s.baseUrl}/mcp`;
  const secret = s.clientSecret ?? "<client secret>";
  return {
    mcpUrl: mcp,
    clientId: s.clientId,
    secret: s.clientSecret ?? SECRET_ELSEWHERE,
    secretShown: s.clientSecret !== null,
    openRegistration: s.openRegistration,
    mailboxes: s.allowedMailboxes === undefined ? null : mailboxesText(s.allowedMailboxes, s.openRegistration),
    note: `The URL must be exactly the public origin in MAILBOX_MCP_BASE_URL (${s.baseUrl}): ` +
      "clients refuse a server whose metadata names another origin (localhost vs 127.0.0.1 included).",
    clients: s.openRegistration ? openClients(s, mcp) : closedClients(s, mcp, secret),
    signIn: signInGuide(s),
  };
}

/** Which providers the setup page signs in at, and what to register at them (docs/oauth-providers.md §1, §2). */
function signInGuide(s: GuideSettings): ConnectGuide["signIn"] {
  const providers = s.signInProviders ?? [];
  const note = providers.length
    ? `Their app registrations must allow the redirect URI \`${s.baseUrl}/oauth/upstream/callback\`.`
    : "None: people connect with app passwords only. Outlook.com and Microsoft 365 mailboxes need " +
      "`MAILBOX_MCP_MICROSOFT_CLIENT_ID` (see docs/oauth-providers.md).";
  return { providers, note };
}

function mailboxesText(list: AllowedMailboxes | null, openRegistration: boolean): string {
  if (list !== null) return describeAllowedMailboxes(list);
  return openRegistration ? "not set: `serve` refuses to start with open registration until MAILBOX_MCP_ALLOWED_MAILBOXES is set"
    : "any (not set; only the configured client can sign in)";
}

const plain = (s: string) => s.replaceAll("`", "");

/** The guide as `mailbox-mcp client` prints it. */
export function guideText(g: ConnectGuide): string {
  const registration = g.openRegistration
    ? "on: clients that register themselves need only the URL"
    : "off (start with --open-registration and MAILBOX_MCP_ALLOWED_MAILBOXES for Claude Code, ChatGPT and VS Code)";
  const head = [
    "mailbox-mcp client settings", "",
    `  MCP server URL    : ${g.mcpUrl}`,
    `  Open registration : ${registration}`,
    ...(g.mailboxes === null ? [] : [`  Mailboxes allowed : ${plain(g.mailboxes)}`]),
    `  Client ID         : ${g.clientId}`,
    `  Client secret     : ${plain(g.secret)}`,
    `  Sign in at        : ${g.signIn.providers.length ? g.signIn.providers.join("; ") : "no provider (app passwords only)"}`, "",
    plain(g.note), plain(g.signIn.note), "",
  ];
  const clients = g.clients.flatMap((c) => [`${plain(c.title)}:`, ...c.steps.map((s) => `  ${plain(s)}`), ""]);
  return [...head, ...clients].join("\n");
}
