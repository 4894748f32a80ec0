// Configuration (docs/design.md §1): flags, then environment, then defaults; read and checked once at start-up.
// Nothing else in src/ reads the environment.
import { homedir } from "node:os";
import { join } from "node:path";
import { parseAllowedMailboxes, type AllowedMailboxes } from "./allowed-mailboxes.ts";

import { ConfigError } from "./config/error.ts";
import { parseOAuthSettings, type OAuthSettings } from "./config/oauth-providers.ts";

export { ConfigError };

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
  /** OAuth mail providers: the Microsoft and Google presets when configured, and the providers file (docs/design.md §5). */
  oauth: OAuthSettings;
  /** Whose mailboxes may be connected (./allowed-mailboxes.ts, docs/oauth.md §10); null: not set (anyone). */
  allowedMailboxes: AllowedMailboxes | null;
  /** Clients identified by a Client ID Metadata Document: client_id = an HTTPS URL (docs/oauth.md §11). */
  clientMetadataDocuments: boolean;
}

export interface SendLimits {
  perHour: number;
  perDay: number;
}

/** MAILBOX_MCP_SEND_LIMITS' default: room for a busy person's day, not for a runaway loop. */
export const DEFAULT_SEND_LIMITS: SendLimits = { perHour: 30, perDay: 200 };

/** Settings plus what the data dir supplies when not configured. */
export interface Config extends Settings {
  clientId: string;
  clientSecret: string;
  secretKey: Uint8Array;
  version: string;
}

type Env = Record<string, string | undefined>;

export const MIN_CLIENT_SECRET = 32;

const FLAGS: Record<string, string> = {
  "--base-url": "MAILBOX_MCP_BASE_URL",
  "--host": "MAILBOX_MCP_HOST",
  "--port": "MAILBOX_MCP_PORT",
  "--data-dir": "MAILBOX_MCP_DATA_DIR",
  "--database-url": "MAILBOX_MCP_DATABASE_URL",
};

/** Switches: the bare flag means true; `--flag=false` turns one off. They never take the next argument. */
const SWITCHES: Record<string, string> = {
  "--open-registration": "MAILBOX_MCP_OPEN_REGISTRATION",
  "--client-metadata-documents": "MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS",
};

/** Flags (`--port 8080` or `--port=8080`) mapped onto their environment keys; flags win. */
export function flagsToEnv(args: string[]): Env {
  const out: Env = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const switchKey = SWITCHES[name];
    if (switchKey) {
      out[switchKey] = inline ?? "true";
      continue;
    }
    const key = FLAGS[name];
    if (!key) throw new ConfigError(arg, "unknown option (see --help)");
    const value = inline ?? args[++i];
    if (value === undefined) throw new ConfigError(name, "needs a value");
    out[key] = value;
  }
  return out;
}

function origin(key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(key, `"${value}" is not a URL with a scheme, e.g. https://mail.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(key, "must start with http:// or https://");
  if (url.pathname !== "/" || url.search || url.hash) throw new ConfigError(key, "must be an origin only (scheme and host, no path)");
  return url.origin;
}

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function bool(key: string, value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(key, `"${value}" is not true or false`);
}

function port(key: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) throw new ConfigError(key, `"${value}" is not a port (1-65535)`);
  return n;
}

/** A Postgres URL as Bun.SQL takes it; its password is never echoed back in an error. */
function databaseUrl(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  const key = "MAILBOX_MCP_DATABASE_URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(key, "is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (unset: the SQLite file in the data dir)");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ConfigError(key, `must start with postgres:// (got ${url.protocol}//); unset it for the SQLite file in the data dir`);
  }
  if (!url.hostname || url.pathname.length <= 1) throw new ConfigError(key, "must name a host and a database: postgres://USER:PASSWORD@HOST:PORT/DATABASE");
  return value;
}

/** `30/h,200/d`: either part may be left out (it keeps its default); each count 1 to 100000. */
export function sendLimits(value: string | undefined): SendLimits {
  const key = "MAILBOX_MCP_SEND_LIMITS";
  const out = { ...DEFAULT_SEND_LIMITS };
  const seen = new Set<string>();
  for (const part of list(value)) {
    const m = /^(\d{1,6})\s*\/\s*(h|d)$/i.exec(part);
    const n = m ? Number(m[1]) : 0;
    if (!m || n < 1 || n > 100_000) throw new ConfigError(key, `"${part}" is not a count per hour or per day, e.g. 30/h,200/d`);
    const unit = m[2]!.toLowerCase();
    if (seen.has(unit)) throw new ConfigError(key, `gives the count per ${unit === "h" ? "hour" : "day"} twice`);
    seen.add(unit);
    if (unit === "h") out.perHour = n;
    else out.perDay = n;
  }
  if (out.perHour > out.perDay) throw new ConfigError(key, `${out.perHour} an hour is more than ${out.perDay} a day`);
  return out;
}

export function decodeSecretKey(key: string, value: string): Uint8Array {
  const bytes = Buffer.from(value.trim(), "base64");
  if (bytes.length !== 32 || bytes.toString("base64").replace(/=+$/, "") !== value.trim().replace(/=+$/, "")) {
    throw new ConfigError(key, "must be 32 bytes in base64 (make one with: openssl rand -base64 32)");
  }
  return new Uint8Array(bytes);
}

export function defaultDataDir(env: Env): string {
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(env.HOME ?? homedir(), ".local", "share"), "mailbox-mcp");
}

function allowedMailboxes(value: string | undefined): AllowedMailboxes | null {
  if (value === undefined || value.trim() === "") return null;
  const parsed = parseAllowedMailboxes(value);
  if (typeof parsed === "string") throw new ConfigError("MAILBOX_MCP_ALLOWED_MAILBOXES", parsed);
  return parsed;
}

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

export function parseSettings(args: string[], env: Env): Settings {
  const e = { ...env, ...flagsToEnv(args) };
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
    oauth: parseOAuthSettings(e, allowPrivateHosts),
    allowedMailboxes: allowedMailboxes(e.MAILBOX_MCP_ALLOWED_MAILBOXES),
    clientMetadataDocuments: bool("MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS", e.MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS),
  };
}
