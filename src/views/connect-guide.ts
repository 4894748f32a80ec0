// How to connect each MCP client, as data: `mailbox-mcp client` prints it as text with the client
// secret, the front door (GET /) renders it as HTML without (docs/design.md §3). The steps per client
// are ./connect-clients.ts (README "Connecting MCP clients"). `code` spans are marked with backticks;
// the text rendering drops them.
import { describeAllowedMailboxes, type AllowedMailboxes } from "../allowed-mailboxes.ts";
import type { GuideSettings } from "./guide-settings.ts";
import { closedClients, DOCUMENTS_NOTE, openClients, type GuideClient } from "./connect-clients.ts";

export type { GuideClient } from "./connect-clients.ts";

export interface ConnectGuide {
  mcpUrl: string;
  /** The owner's page: where a person sees and revokes the apps holding their mailbox (docs/owner.md §7). */
  accountUrl: string;
  clientId: string;
  /** The secret, or where to get it when it must not be shown. */
  secret: string;
  secretShown: boolean;
  openRegistration: boolean;
  clientMetadataDocuments: boolean;
  /** Whose mailboxes may be connected, in words; only for `mailbox-mcp client` (the front door never shows it). */
  mailboxes: string | null;
  note: string;
  clients: GuideClient[];
  /** The OAuth mail providers people can sign in at on the setup page (docs/oauth-providers.md), and where to read more. */
  signIn: { providers: string[]; note: string };
}

export type { GuideSettings };

/** Where the secret is when a page must not show it. */
export const SECRET_ELSEWHERE = "run `mailbox-mcp client` on the server (from a checkout: `bun run start client`)";

export function connectGuide(s: GuideSettings): ConnectGuide {
  const mcp = `${s.baseUrl}/mcp`;
  const secret = s.clientSecret ?? "<client secret>";
  return {
    mcpUrl: mcp,
    accountUrl: `${s.baseUrl}/account`,
    clientId: s.clientId,
    secret: s.clientSecret ?? SECRET_ELSEWHERE,
    secretShown: s.clientSecret !== null,
    openRegistration: s.openRegistration,
    clientMetadataDocuments: s.clientMetadataDocuments,
    mailboxes: s.allowedMailboxes === undefined ? null : mailboxesText(s.allowedMailboxes, s.openRegistration),
    note: `The URL must be exactly the public origin in MAILBOX_MCP_BASE_URL (${s.baseUrl}): ` +
      "clients refuse a server whose metadata names another origin (localhost vs 127.0.0.1 included).",
    clients: [
      ...(s.openRegistration ? openClients(s, mcp) : closedClients(s, mcp, secret)),
      ...(s.clientMetadataDocuments ? [{ title: "Clients with a client metadata document", steps: [DOCUMENTS_NOTE] }] : []),
    ],
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
    : "off (start with --open-registration and MAILBOX_MCP_ALLOWED_MAILBOXES for ChatGPT and VS Code)";
  const head = [
    "mailbox-mcp client settings", "",
    `  MCP server URL    : ${g.mcpUrl}`,
    `  Open registration : ${registration}`,
    `  Metadata documents: ${g.clientMetadataDocuments ? "on: clients may sign in with the https URL of their metadata document" : "off"}`,
    ...(g.mailboxes === null ? [] : [`  Mailboxes allowed : ${plain(g.mailboxes)}`]),
    `  Client ID         : ${g.clientId}`,
    `  Client secret     : ${plain(g.secret)}`,
    `  Your apps         : ${g.accountUrl} (sign in with the mailbox to see and revoke the apps that hold it)`,
    `  Sign in at        : ${g.signIn.providers.length ? g.signIn.providers.join("; ") : "no provider (app passwords only)"}`, "",
    plain(g.note), plain(g.signIn.note), "",
  ];
  const clients = g.clients.flatMap((c) => [`${plain(c.title)}:`, ...c.steps.map((s) => `  ${plain(s)}`), ""]);
  return [...head, ...clients].join("\n");
}
