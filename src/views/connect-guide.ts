// How to connect each MCP client, as data: `mailbox-mcp client` prints it as text with the client
// secret, the front door (GET /) renders it as HTML without (DESIGN §3). `code` spans are marked
// with backticks; the text rendering drops them.

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
  note: string;
  clients: GuideClient[];
}

/** Where the secret is when a page must not show it. */
export const SECRET_ELSEWHERE = "run `mailbox-mcp client` on the server (from a checkout: `bun run start client`)";

export function connectGuide(baseUrl: string, clientId: string, clientSecret: string | null): ConnectGuide {
  const mcp = `${baseUrl}/mcp`;
  const secret = clientSecret ?? "<client secret>";
  return {
    mcpUrl: mcp,
    clientId,
    secret: clientSecret ?? SECRET_ELSEWHERE,
    secretShown: clientSecret !== null,
    note: `The URL must be exactly the public origin in MAILBOX_MCP_BASE_URL (${baseUrl}): ` +
      "clients refuse a server whose metadata names another origin (localhost vs 127.0.0.1 included).",
    clients: [
      {
        title: "Claude.ai (Settings → Connectors → Add custom connector)",
        steps: [
          `URL: \`${mcp}\``,
          `Advanced settings → OAuth Client ID: \`${clientId}\`, OAuth Client Secret: \`${secret}\``,
          "Claude.ai reaches your server from the internet: put it behind HTTPS (see README).",
        ],
      },
      {
        title: "Claude Code",
        steps: [
          "Start the server with `MAILBOX_MCP_EXTRA_REDIRECT_URIS=http://localhost:8080/callback`.",
          `Run \`MCP_CLIENT_SECRET='${secret}' claude mcp add --transport http --client-id ${clientId} --client-secret --callback-port 8080 mailbox ${mcp}\``,
          "Run `/mcp` in Claude Code to sign in.",
        ],
      },
      {
        title: "MCP Inspector (`npx @modelcontextprotocol/inspector`)",
        steps: [
          "Open `http://localhost:6274` (not the 127.0.0.1 address its banner prints: only the localhost callback is allowed).",
          `Transport: Streamable HTTP, URL \`${mcp}\`.`,
          `Under Settings ▸ OAuth Settings (Inspector 1.x: Authentication) set Client ID \`${clientId}\` and Client Secret \`${secret}\`.`,
          "In direct (browser) mode also start the server with `MAILBOX_MCP_EXTRA_ORIGINS=http://localhost:6274`.",
        ],
      },
    ],
  };
}

const plain = (s: string) => s.replaceAll("`", "");

/** The guide as `mailbox-mcp client` prints it. */
export function guideText(g: ConnectGuide): string {
  const head = [
    "mailbox-mcp client settings", "",
    `  MCP server URL : ${g.mcpUrl}`,
    `  Client ID      : ${g.clientId}`,
    `  Client secret  : ${plain(g.secret)}`, "",
    plain(g.note), "",
  ];
  const clients = g.clients.flatMap((c) => [`${plain(c.title)}:`, ...c.steps.map((s) => `  ${plain(s)}`), ""]);
  return [...head, ...clients].join("\n");
}
