// The optional settings file (docs/design.md §1): TOML with the settings' names as keys, read once at
// start-up. Values are turned into the strings the environment would hold, so that one set of checks
// (../config.ts) serves flags, environment and file alike; `[[oauth_providers]]` tables are the entries
// of the OAuth providers file (docs/oauth-providers.md §5).
import { readFileSync, statSync } from "node:fs";
import { ConfigError } from "./error.ts";
import { envName, rowByName, type SettingRow } from "./settings-table.ts";

export interface SettingsFile {
  path: string;
  /** Environment name → value, as the environment would spell it. */
  values: Record<string, string>;
  /** The `[[oauth_providers]]` entries, unchecked; null when the file has none. */
  providers: unknown[] | null;
}

export const PROVIDERS_TABLE = "oauth_providers";

/** TOML's value as the environment's string: lists joined by commas, booleans and numbers written out. */
function asString(path: string, row: SettingRow, value: unknown): string {
  const fail = (problem: string): never => {
    throw new ConfigError(`${path}: ${row.name}`, problem);
  };
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return row.kind === "switch" ? String(value) : fail("must be a string");
  if (typeof value === "number") return row.kind === "number" && Number.isInteger(value) ? String(value) : fail("must be a string");
  if (Array.isArray(value) && row.kind === "list") {
    if (value.some((v) => typeof v !== "string" || v.includes(","))) fail("must be a list of strings without commas");
    return value.join(",");
  }
  return fail(row.kind === "list" ? "must be a string or a list of strings" : "must be a string");
}

/** Never the parser's words: they quote the text at the mistake, which may be a secret written without quotes. */
function parse(path: string, text: string): Record<string, unknown> {
  try {
    return Bun.TOML.parse(text) as Record<string, unknown>;
  } catch {
    throw new ConfigError(path, "cannot be read as TOML (not valid TOML)");
  }
}

function read(path: string, required: boolean): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // The default path under a data dir that is not there yet (or not a directory: prepareDataDir says so).
    if ((code === "ENOENT" || code === "ENOTDIR") && !required) return null;
    throw new ConfigError(path, code === "ENOENT" ? "no such file (MAILBOX_MCP_CONFIG_FILE)" : `cannot be read (${code ?? (err as Error).message})`);
  }
}

/**
 * The settings file at `path`, or null when it is the default one and absent. `required`: the path was
 * given (flag or environment), so a missing file is a mistake. Warns when others may read its secrets.
 */
export function readSettingsFile(path: string, required: boolean, warn: (message: string) => void): SettingsFile | null {
  const text = read(path, required);
  if (text === null) return null;
  const doc = parse(path, text);
  const out: SettingsFile = { path, values: {}, providers: null };
  for (const [key, value] of Object.entries(doc)) {
    if (key === PROVIDERS_TABLE) {
      if (!Array.isArray(value)) throw new ConfigError(`${path}: ${key}`, "must be tables: [[oauth_providers]]");
      out.providers = value;
      continue;
    }
    const row = rowByName(key);
    if (!row) throw new ConfigError(`${path}: ${key}`, "is not a setting (see mailbox-mcp --help)");
    if (row.notInFile) throw new ConfigError(`${path}: ${key}`, "cannot be set in the settings file (it locates the file): use the flag or the environment");
    out.values[envName(row)] = asString(path, row, value);
  }
  if (out.providers && out.values.MAILBOX_MCP_OAUTH_PROVIDERS_FILE !== undefined) {
    throw new ConfigError(`${path}: ${PROVIDERS_TABLE}`, "and oauth_providers_file are both set: keep one");
  }
  if (holdsSecret(doc) && (statSync(path).mode & 0o004) !== 0) {
    warn(`${path} holds a secret and anyone on this machine can read it: chmod 600 ${path}`);
  }
  return out;
}

function holdsSecret(doc: Record<string, unknown>): boolean {
  const secret = ([k, v]: [string, unknown]) => {
    const kind = rowByName(k)?.secret;
    return kind === "whole" || (kind === "password" && typeof v === "string" && URL.canParse(v) && new URL(v).password !== "");
  };
  if (Object.entries(doc).some(secret)) return true;
  const providers = doc[PROVIDERS_TABLE];
  return Array.isArray(providers) && providers.some((p) => p && typeof p === "object" && "client_secret" in p);
}
