// Configuration (docs/design.md §1): flags, then environment, then the settings file, then defaults;
// read and checked once at start-up. Nothing else in src/ reads the environment.
import type { AllowedMailboxes } from "./allowed-mailboxes.ts";
import { ConfigError } from "./config/error.ts";
import { parseOAuthSettings, type OAuthSettings } from "./config/oauth-providers.ts";
import { defaultDataDir, resolveSources, type Env, type ResolvedSources } from "./config/sources.ts";
import { rowByEnv } from "./config/settings-table.ts";
import {
  allowedMailboxes, bool, countOrAuto, databaseUrl, decodeSecretKey, list, origin, port, sendLimits, type SendLimits,
} from "./config/values.ts";

export { ConfigError, decodeSecretKey, defaultDataDir, sendLimits, type SendLimits };
export { DEFAULT_SEND_LIMITS } from "./config/values.ts";

export interface Settings {
  baseUrl: string;
  host: string;
  port: number;
  dataDir: string;
  clientId: string | null;
  clientSecret: string | null;
  clientHosts: [string, string];
  siteOrigin: string | null;
  extraRedirectUris: string[];
  extraOrigins: string[];
  secretKey: Uint8Array | null;
  allowPrivateHosts: boolean;
  /** Behind a reverse proxy: take the client address from the last X-Forwarded-For hop. */
  trustProxy: boolean;
  /** postgres://… shared by several instances (docs/deploy.md), or null: the SQLite file in the data dir. */
  databaseUrl: string | null;
  /** RFC 7591 dynamic client registration at /oauth/register (docs/oauth.md §9); off = the contract's one client. */
  openRegistration: boolean;
  /** Messages one grant may send per hour and per day, counted across instances (docs/design.md §7). */
  sendLimits: SendLimits;
  /** A notice in the INBOX of a mailbox an app was given access to (MAILBOX_MCP_NOTIFY_GRANTS, default on). */
  notifyGrants: boolean;
  /** OAuth mail providers: the Microsoft and Google presets when configured, and the providers file (docs/design.md §5). */
  oauth: OAuthSettings;
  /** Whose mailboxes may be connected (./allowed-mailboxes.ts, docs/oauth.md §10); null: not set (anyone). */
  allowedMailboxes: AllowedMailboxes | null;
  /** Clients identified by a Client ID Metadata Document: client_id = an HTTPS URL (docs/oauth.md §11). */
  clientMetadataDocuments: boolean;
  /** The most IMAP connections held at once (one per active mailbox); null: sized from the machine (src/mail/imap/pool-size.ts). */
  imapMaxConnections: number | null;
}

/** Settings plus what the data dir supplies when not configured. */
export interface Config extends Settings {
  clientId: string;
  clientSecret: string;
  secretKey: Uint8Array;
  version: string;
}

export const MIN_CLIENT_SECRET = 32;

/**
 * The settings that let anyone on the internet reach the setup form with a client of their own:
 * one it registers, or one its own metadata document names.
 */
function strangerSwitches(s: Settings): string[] {
  return [
    ...(s.openRegistration ? ["MAILBOX_MCP_OPEN_REGISTRATION"] : []),
    ...(s.clientMetadataDocuments ? ["MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS"] : []),
  ];
}

/**
 * What `serve` needs beyond parsing (the owner's verbs do not: they must work whatever the switches):
 * with a switch that admits strangers on, the owner must say whose mailboxes are served, or a stranger
 * could connect any mailbox, one on their own mail server included, and become a tenant (docs/oauth.md §10).
 */
export function checkServeSettings(s: Settings): void {
  const open = strangerSwitches(s);
  if (!open.length || s.allowedMailboxes !== null) return;
  throw new ConfigError("MAILBOX_MCP_ALLOWED_MAILBOXES",
    `must be set when ${open.join(" or ")} is on: anyone on the internet can then bring an app of their own and would connect any mailbox, ` +
    "even one on a mail server they run. List whose mailboxes this server serves, e.g. " +
    "MAILBOX_MCP_ALLOWED_MAILBOXES=you@example.com,@example.org,mail.example.net (addresses and @domains as the mail server " +
    "verified the login, mail hosts as connected), or MAILBOX_MCP_ALLOWED_MAILBOXES=* to let anyone connect");
}

/**
 * The settings of these flags and this environment, with the settings file they name (or the data
 * dir's config.toml) under them. `warn` hears about a settings file others may read.
 */
export function parseSettings(args: string[], env: Env, warn: (message: string) => void = () => {}): Settings {
  return settingsFrom(resolveSources(args, env, warn));
}

/** A value from the settings file that fails its check is named by its key and the file, not the environment name. */
export function settingsFrom(r: ResolvedSources): Settings {
  try {
    return checked(r.values, r);
  } catch (err) {
    const row = err instanceof ConfigError ? rowByEnv(err.key) : null;
    if (!row || r.sourceOf(row) !== "file") throw err;
    throw new ConfigError(`${r.file!.path}: ${row.name}`, (err as ConfigError).problem);
  }
}

function checked(e: Env, r: ResolvedSources): Settings {
  const host = e.MAILBOX_MCP_HOST || "127.0.0.1";
  const p = port("MAILBOX_MCP_PORT", e.MAILBOX_MCP_PORT, 8787);
  const baseUrl = e.MAILBOX_MCP_BASE_URL
    ? origin("MAILBOX_MCP_BASE_URL", e.MAILBOX_MCP_BASE_URL)
    : `http://localhost:${p}`;
  const hosts = list(e.MAILBOX_MCP_CLIENT_HOSTS ?? "claude.ai,claude.com");
  if (hosts.length !== 2 || hosts.some((h) => !/^[a-z0-9.-]+(:\d+)?$/i.test(h))) {
    throw new ConfigError("MAILBOX_MCP_CLIENT_HOSTS", "must be two host names separated by a comma");
  }
  for (const uri of list(e.MAILBOX_MCP_EXTRA_REDIRECT_URIS)) {
    if (!URL.canParse(uri)) throw new ConfigError("MAILBOX_MCP_EXTRA_REDIRECT_URIS", `"${uri}" is not an absolute URL`);
  }
  const secret = e.MAILBOX_MCP_CLIENT_SECRET || null;
  // The generated secret is 64 hex characters (256 bits); an operator's own must not be guessable
  // either: 32 random characters is ≥ 190 bits even from a small alphabet.
  if (secret !== null && secret.length < MIN_CLIENT_SECRET) {
    throw new ConfigError("MAILBOX_MCP_CLIENT_SECRET", `must be at least ${MIN_CLIENT_SECRET} characters (make one with: openssl rand -hex 32)`);
  }
  const allowPrivateHosts = bool("MAILBOX_MCP_ALLOW_PRIVATE_HOSTS", e.MAILBOX_MCP_ALLOW_PRIVATE_HOSTS);
  return {
    baseUrl,
    host,
    port: p,
    dataDir: e.MAILBOX_MCP_DATA_DIR || defaultDataDir(e),
    clientId: e.MAILBOX_MCP_CLIENT_ID || null,
    clientSecret: secret,
    clientHosts: [hosts[0]!, hosts[1]!],
    siteOrigin: e.MAILBOX_MCP_SITE_ORIGIN ? origin("MAILBOX_MCP_SITE_ORIGIN", e.MAILBOX_MCP_SITE_ORIGIN) : null,
    extraRedirectUris: list(e.MAILBOX_MCP_EXTRA_REDIRECT_URIS),
    extraOrigins: list(e.MAILBOX_MCP_EXTRA_ORIGINS).map((o) => origin("MAILBOX_MCP_EXTRA_ORIGINS", o)),
    secretKey: e.MAILBOX_MCP_SECRET_KEY ? decodeSecretKey("MAILBOX_MCP_SECRET_KEY", e.MAILBOX_MCP_SECRET_KEY) : null,
    allowPrivateHosts,
    trustProxy: bool("MAILBOX_MCP_TRUST_PROXY", e.MAILBOX_MCP_TRUST_PROXY),
    databaseUrl: databaseUrl(e.MAILBOX_MCP_DATABASE_URL),
    openRegistration: bool("MAILBOX_MCP_OPEN_REGISTRATION", e.MAILBOX_MCP_OPEN_REGISTRATION),
    sendLimits: sendLimits(e.MAILBOX_MCP_SEND_LIMITS),
    // On unless said otherwise: the person learns of every app given their mailbox (docs/owner.md §6).
    notifyGrants: e.MAILBOX_MCP_NOTIFY_GRANTS === undefined || e.MAILBOX_MCP_NOTIFY_GRANTS === "" || bool("MAILBOX_MCP_NOTIFY_GRANTS", e.MAILBOX_MCP_NOTIFY_GRANTS),
    oauth: parseOAuthSettings(e, allowPrivateHosts, r.file),
    allowedMailboxes: allowedMailboxes(e.MAILBOX_MCP_ALLOWED_MAILBOXES),
    clientMetadataDocuments: bool("MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS", e.MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS),
    imapMaxConnections: countOrAuto("MAILBOX_MCP_IMAP_MAX_CONNECTIONS", e.MAILBOX_MCP_IMAP_MAX_CONNECTIONS),
  };
}
