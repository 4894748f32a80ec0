// Every setting, one row each (docs/design.md §1). The flag, the environment variable and the key of the
// settings file are all derived from the row's name, so they cannot drift apart; `--help` is printed
// from these rows, and a test checks the README's and docs/design.md's tables against them.

/** How a value is written: a switch (a bare flag means true), a comma list (a TOML array too), a number, or text. */
export type SettingKind = "switch" | "list" | "number" | "text";

export interface SettingRow {
  /** The settings-file key; MAILBOX_MCP_ + upper case is the environment variable, -- + dashes the flag. */
  name: string;
  kind: SettingKind;
  /** The value's placeholder in `--help` (none for a switch). */
  arg?: string;
  /** The default as a person reads it. */
  default: string;
  /** One line for `--help`. */
  help: string;
  /** Never printed back: `mailbox-mcp config` masks the whole value, or only the password of a URL. */
  secret?: "whole" | "password";
  /** Locates the settings file itself, so it cannot come from there. */
  notInFile?: boolean;
}

export const ENV_PREFIX = "MAILBOX_MCP_";

export const SETTINGS: readonly SettingRow[] = [
  { name: "base_url", kind: "text", arg: "URL", default: "http://localhost:PORT", help: "the public origin clients use: OAuth issuer, metadata URLs, own CORS origin" },
  { name: "host", kind: "text", arg: "HOST", default: "127.0.0.1", help: "listen address" },
  { name: "port", kind: "number", arg: "PORT", default: "8787", help: "listen port" },
  { name: "data_dir", kind: "text", arg: "DIR", default: "$XDG_DATA_HOME/mailbox-mcp, else ~/.local/share/mailbox-mcp", help: "store, keys and config.toml", notInFile: true },
  { name: "config_file", kind: "text", arg: "FILE", default: "config.toml in the data dir, if there", help: "the settings file (TOML; keys are these names in lower case, e.g. send_limits)", notInFile: true },
  { name: "database_url", kind: "text", arg: "URL", default: "none: the SQLite file in the data dir", help: "postgres://… shared by several instances; then client_id, client_secret and secret_key must be set", secret: "password" },
  { name: "client_id", kind: "text", arg: "ID", default: "generated at first start (client.json)", help: "the one configured OAuth client; required with a database URL" },
  { name: "client_secret", kind: "text", arg: "SECRET", default: "generated at first start (client.json)", help: "its secret, at least 32 characters (openssl rand -hex 32)", secret: "whole" },
  { name: "secret_key", kind: "text", arg: "BASE64", default: "secret.key in the data dir", help: "32-byte base64 master key (openssl rand -base64 32); required with a database URL", secret: "whole" },
  { name: "client_hosts", kind: "list", arg: "HOST,HOST", default: "claude.ai,claude.com", help: "the two hosted clients whose https://HOST/api/mcp/auth_callback is allowed" },
  { name: "site_origin", kind: "text", arg: "ORIGIN", default: "none", help: "one more allowed web origin" },
  { name: "extra_redirect_uris", kind: "list", arg: "URIS", default: "none", help: "comma list of further redirect URIs; a loopback one (http://localhost/callback) matches any port, any other exactly" },
  { name: "extra_origins", kind: "list", arg: "ORIGINS", default: "none", help: "comma list of further CORS origins (e.g. http://localhost:6274)" },
  { name: "allow_private_hosts", kind: "switch", default: "false", help: "allow custom mail servers on private and loopback addresses" },
  { name: "trust_proxy", kind: "switch", default: "false", help: "behind a reverse proxy: rate-limit by the last X-Forwarded-For hop" },
  { name: "open_registration", kind: "switch", default: "false", help: "let clients register themselves (RFC 7591); needs allowed_mailboxes" },
  { name: "client_metadata_documents", kind: "switch", default: "false", help: "accept clients whose client_id is the https URL of their metadata document; needs allowed_mailboxes" },
  { name: "allowed_mailboxes", kind: "list", arg: "LIST", default: "none (any mailbox)", help: "whose mailboxes may be connected: addresses, @domains and IMAP hosts, or * for anyone" },
  { name: "send_limits", kind: "text", arg: "N/h,N/d", default: "30/h,200/d", help: "messages one grant may send per hour and per day" },
  { name: "notify_grants", kind: "switch", default: "true", help: "put a notice in the mailbox's INBOX (IMAP APPEND, nothing sent) when an app is given access to it" },
  { name: "imap_max_connections", kind: "number", arg: "N", default: "auto (sized from memory and the file limit)", help: "most IMAP connections held at once, one per active mailbox" },
  { name: "microsoft_client_id", kind: "text", arg: "ID", default: "none", help: "\"Sign in with Microsoft\" on the setup page (Outlook.com, Microsoft 365)" },
  { name: "microsoft_client_secret", kind: "text", arg: "SECRET", default: "none (a public client)", help: "the Microsoft app's client secret", secret: "whole" },
  { name: "microsoft_tenant", kind: "text", arg: "TENANT", default: "common", help: "the Microsoft tenant: common, organizations, consumers, or a tenant id or domain" },
  { name: "google_client_id", kind: "text", arg: "ID", default: "none", help: "\"Sign in with Google\" on the setup page" },
  { name: "google_client_secret", kind: "text", arg: "SECRET", default: "none", help: "the Google app's client secret (required with its id)", secret: "whole" },
  { name: "oauth_providers_file", kind: "text", arg: "FILE", default: "none", help: "JSON file of further OAuth mail providers (or [[oauth_providers]] in the settings file)" },
];

export const envName = (row: SettingRow): string => ENV_PREFIX + row.name.toUpperCase();
export const flagName = (row: SettingRow): string => `--${row.name.replaceAll("_", "-")}`;

/** `--config` is the short spelling of `--config-file`. */
const ALIASES: Record<string, string> = { "--config": "--config-file" };

const BY_FLAG = new Map(SETTINGS.map((r) => [flagName(r), r]));
const BY_NAME = new Map(SETTINGS.map((r) => [r.name, r]));

export function rowByFlag(flag: string): SettingRow | null {
  return BY_FLAG.get(ALIASES[flag] ?? flag) ?? null;
}

export function rowByName(name: string): SettingRow | null {
  return BY_NAME.get(name) ?? null;
}

export function rowByEnv(env: string): SettingRow | null {
  return env.startsWith(ENV_PREFIX) ? rowByName(env.slice(ENV_PREFIX.length).toLowerCase()) : null;
}
