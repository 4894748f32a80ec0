// OAuth mail providers as configured (docs/design.md §1, §5): the Microsoft and Google presets turned on
// by their client ids, and further providers from MAILBOX_MCP_OAUTH_PROVIDERS_FILE or the settings file's
// [[oauth_providers]], checked here at
// start-up so a bad file stops the server with a line naming the field. What each provider *is*
// (endpoints of the presets, how to sign in) lives in src/oauth/provider-sign-in/; this file only reads.
import { readFileSync } from "node:fs";
import { ConfigError } from "./error.ts";
import { PROVIDERS_TABLE, type SettingsFile } from "./settings-file.ts";

export interface OAuthClientSettings {
  clientId: string;
  /** Null: a public client (PKCE is its proof, RFC 7636); else sent as client_secret (RFC 6749 §2.3.1). */
  clientSecret: string | null;
}

export type SaslMechanism = "xoauth2" | "oauthbearer";
/** Where the mailbox address comes from: the ID token's claims, the userinfo endpoint, or the setup form. */
export type AddressSource = "id_token" | "userinfo" | "form";

export interface FileEndpoint {
  host: string;
  port: number;
  security: "tls" | "starttls" | "none";
}

/** One provider of the file (docs/design.md §5), checked. */
export interface FileProviderSettings extends OAuthClientSettings {
  id: string;
  name: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
  scopes: string[];
  addressFrom: AddressSource;
  imap: FileEndpoint;
  smtp: FileEndpoint;
  sasl: SaslMechanism;
  /** Further authorization request parameters (e.g. Keycloak's `prompt`); never the ones we set. */
  authorizeParams: Record<string, string>;
  savesSent: boolean;
  /**
   * The authorization server's issuer identifier, for a provider that sends `iss` with its
   * authorization responses (RFC 9207, `authorization_response_iss_parameter_supported`): then the
   * callback must carry exactly it. Null: the provider sends none.
   */
  issuer: string | null;
}

export interface OAuthSettings {
  microsoft: (OAuthClientSettings & { tenant: string }) | null;
  google: OAuthClientSettings | null;
  file: FileProviderSettings[];
}

type Env = Record<string, string | undefined>;
/** Throws the one-line error, naming where the provider came from. */
type Blame = (problem: string) => never;

const FILE_KEY = "MAILBOX_MCP_OAUTH_PROVIDERS_FILE";
/** Ids the built-in providers use; a file provider must not shadow one. */
export const RESERVED_PROVIDER_IDS = new Set(["microsoft", "google", "custom"]);
/** What we put in every authorization request ourselves (RFC 6749 §4.1.1, RFC 7636 §4.3). */
const OWN_PARAMS = new Set(["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method", "login_hint"]);
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function client(prefix: string, env: Env, secretRequired: boolean): OAuthClientSettings | null {
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim() || null;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim() || null;
  if (!clientId) {
    if (clientSecret) throw new ConfigError(`${prefix}_CLIENT_SECRET`, `is set but ${prefix}_CLIENT_ID is not: set both, or neither`);
    return null;
  }
  if (secretRequired && !clientSecret) throw new ConfigError(`${prefix}_CLIENT_SECRET`, "is required with the client id (the app's client secret)");
  return { clientId, clientSecret };
}

function microsoft(env: Env): OAuthSettings["microsoft"] {
  const key = "MAILBOX_MCP_MICROSOFT";
  const c = client(key, env, false);
  const tenant = env[`${key}_TENANT`]?.trim() || "common";
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,127}$/.test(tenant)) {
    throw new ConfigError(`${key}_TENANT`, "must be common, organizations, consumers, a tenant id or a tenant domain");
  }
  if (!c && env[`${key}_TENANT`]) throw new ConfigError(`${key}_TENANT`, `is set but ${key}_CLIENT_ID is not`);
  return c ? { ...c, tenant } : null;
}

/** A field checker bound to one provider entry, so every message names the file and the field. */
function fields(blame: Blame, entry: string, raw: Record<string, unknown>, allowHttp: boolean) {
  const fail = (field: string, problem: string): never => blame(`${entry}.${field} ${problem}`);
  const str = (field: string, max = 2048): string => {
    const v = raw[field];
    if (typeof v !== "string" || !v.trim() || v.length > max || /[\u0000-\u001f\u007f]/.test(v)) fail(field, `must be a non-empty string`);
    return (v as string).trim();
  };
  const optStr = (field: string): string | null => (raw[field] === undefined || raw[field] === null ? null : str(field));
  const url = (field: string): string => {
    const v = str(field);
    const u = URL.canParse(v) ? new URL(v) : null;
    if (!u || !(u.protocol === "https:" || (allowHttp && u.protocol === "http:")) || u.hash) {
      fail(field, allowHttp ? "must be an http(s):// URL" : "must be an https:// URL (http only with MAILBOX_MCP_ALLOW_PRIVATE_HOSTS)");
    }
    return v;
  };
  const oneOf = <T extends string>(field: string, values: readonly T[], fallback?: T): T => {
    const v = raw[field] ?? fallback;
    if (!values.includes(v as T)) fail(field, `must be one of ${values.join(", ")}`);
    return v as T;
  };
  const endpoint = (field: "imap" | "smtp"): FileEndpoint => {
    const e = raw[field] as Record<string, unknown> | undefined;
    if (!e || typeof e !== "object") return fail(field, "must be an object {host, port, security}");
    if (typeof e.host !== "string" || !HOST.test(e.host)) fail(`${field}.host`, "must be a host name");
    if (!Number.isInteger(e.port) || (e.port as number) < 1 || (e.port as number) > 65535) fail(`${field}.port`, "must be a port (1-65535)");
    if (!["tls", "starttls", "none"].includes(e.security as string)) fail(`${field}.security`, "must be tls, starttls or none");
    return { host: e.host as string, port: e.port as number, security: e.security as FileEndpoint["security"] };
  };
  return { fail, str, optStr, url, oneOf, endpoint };
}

function scopesOf(raw: unknown, fail: (f: string, p: string) => never): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((s) => typeof s !== "string" || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
    fail("scopes", "must be a non-empty list of scope strings (RFC 6749 §3.3)");
  }
  return raw as string[];
}

function extraParams(raw: unknown, fail: (f: string, p: string) => never): Record<string, string> {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) fail("authorize_params", "must be an object of strings");
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as object)) {
    if (typeof v !== "string") fail(`authorize_params.${k}`, "must be a string");
    if (OWN_PARAMS.has(k)) fail(`authorize_params.${k}`, "is set by mailbox-mcp itself");
    out[k] = v;
  }
  return out;
}

function fileProvider(blame: Blame, entry: string, raw: Record<string, unknown>, allowHttp: boolean): FileProviderSettings {
  const f = fields(blame, entry, raw, allowHttp);
  const id = f.str("id", 32).toLowerCase();
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) f.fail("id", "may hold only letters, digits, '.', '_' and '-'");
  if (RESERVED_PROVIDER_IDS.has(id)) f.fail("id", `"${id}" is a built-in provider's id: choose another`);
  const addressFrom = f.oneOf<AddressSource>("address_from", ["id_token", "userinfo", "form"]);
  const userinfoEndpoint = raw.userinfo_endpoint === undefined ? null : f.url("userinfo_endpoint");
  if (addressFrom === "userinfo" && !userinfoEndpoint) f.fail("userinfo_endpoint", "is required with address_from \"userinfo\"");
  if (raw.saves_sent !== undefined && typeof raw.saves_sent !== "boolean") f.fail("saves_sent", "must be true or false");
  return {
    id, name: f.str("name", 60),
    authorizationEndpoint: f.url("authorization_endpoint"), tokenEndpoint: f.url("token_endpoint"), userinfoEndpoint,
    clientId: f.str("client_id"), clientSecret: f.optStr("client_secret"),
    scopes: scopesOf(raw.scopes, f.fail), addressFrom,
    imap: f.endpoint("imap"), smtp: f.endpoint("smtp"),
    sasl: f.oneOf<SaslMechanism>("sasl", ["xoauth2", "oauthbearer"], "xoauth2"),
    authorizeParams: extraParams(raw.authorize_params, f.fail),
    savesSent: raw.saves_sent === true,
    issuer: raw.issuer === undefined ? null : f.url("issuer"),
  };
}

/** The providers file: `{"providers": [...]}`, every entry checked; null path → none. */
export function readProvidersFile(path: string | null, allowHttp: boolean, read = (p: string) => readFileSync(p, "utf8")): FileProviderSettings[] {
  if (!path) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(read(path));
  } catch (err) {
    // Never the parser's own words: they quote the text at the mistake, which may be a client_secret
    // written without its quotes, and this line goes to stderr (and the service's journal).
    const why = err instanceof SyntaxError ? "not valid JSON"
      : (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    throw new ConfigError(FILE_KEY, `${path}: cannot be read as JSON (${why})`);
  }
  const blame: Blame = (problem) => {
    throw new ConfigError(FILE_KEY, `${path}: ${problem}`);
  };
  const list = (doc as { providers?: unknown })?.providers;
  if (!Array.isArray(list) || list.length === 0 || list.length > 20) blame(`must be {"providers": [ … ]} with 1 to 20 providers`);
  return providerList(list as unknown[], "providers", blame, allowHttp);
}

/** Entries of the providers file, or of `[[oauth_providers]]` in the settings file, each checked. */
function providerList(list: unknown[], name: string, blame: Blame, allowHttp: boolean): FileProviderSettings[] {
  if (list.length === 0 || list.length > 20) blame(`${name} must hold 1 to 20 providers`);
  const out = list.map((raw, i) => {
    if (!raw || typeof raw !== "object") blame(`${name}[${i}] must be an object`);
    return fileProvider(blame, `${name}[${i}]`, raw as Record<string, unknown>, allowHttp);
  });
  const ids = out.map((p) => p.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) blame(`the id "${twice}" is used twice`);
  return out;
}

/** The `[[oauth_providers]]` tables of the settings file; errors name the file and the entry. */
function settingsFileProviders(file: SettingsFile | null, allowHttp: boolean): FileProviderSettings[] {
  if (!file?.providers) return [];
  const blame: Blame = (problem) => {
    throw new ConfigError(file.path, problem);
  };
  return providerList(file.providers, PROVIDERS_TABLE, blame, allowHttp);
}

/** The OAuth providers of this configuration; `allowHttp` (private hosts allowed) lets a file name http:// endpoints. */
export function parseOAuthSettings(env: Env, allowHttp: boolean, settingsFile: SettingsFile | null = null): OAuthSettings {
  // A providers file named by flag or environment wins over the settings file's tables (the file
  // itself may not hold both: ./settings-file.ts).
  const path = env[FILE_KEY]?.trim() || null;
  return {
    microsoft: microsoft(env),
    google: client("MAILBOX_MCP_GOOGLE", env, true),
    file: path ? readProvidersFile(path, allowHttp) : settingsFileProviders(settingsFile, allowHttp),
  };
}
