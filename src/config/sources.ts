// Where each setting's value comes from (docs/design.md §1): a flag wins over the environment, which
// wins over the settings file, which wins over the default. The data dir and the settings file's own
// path come from flags and environment only: they locate the file.
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "./error.ts";
import { readSettingsFile, type SettingsFile } from "./settings-file.ts";
import { envName, rowByFlag, SETTINGS, type SettingRow } from "./settings-table.ts";

export type Env = Record<string, string | undefined>;
export type Source = "flag" | "env" | "file" | "default";

export interface ResolvedSources {
  /** The environment with the file's values under it and the flags' over it, by environment name. */
  values: Env;
  sourceOf: (row: SettingRow) => Source;
  /** The settings file read, or null: none at the default path. */
  file: SettingsFile | null;
  /** Where the settings file is looked for. */
  configPath: string;
}

export const CONFIG_FILE_NAME = "config.toml";

/** Flags (`--port 8080`, `--port=8080`; a switch bare or `--switch=false`) mapped onto their environment names. */
export function flagsToEnv(args: string[]): Env {
  const out: Env = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf("=");
    const [name, inline] = eq >= 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const row = rowByFlag(name);
    if (!row) throw new ConfigError(arg, "unknown option (see --help)");
    if (row.kind === "switch") {
      out[envName(row)] = inline ?? "true";
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new ConfigError(name, "needs a value");
    out[envName(row)] = value;
  }
  return out;
}

export function defaultDataDir(env: Env): string {
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(env.HOME ?? homedir(), ".local", "share"), "mailbox-mcp");
}

/** Flags, environment and settings file merged, each value remembering its source. */
export function resolveSources(args: string[], env: Env, warn: (message: string) => void): ResolvedSources {
  const flags = flagsToEnv(args);
  const early = { ...env, ...flags };
  const given = early.MAILBOX_MCP_CONFIG_FILE || null;
  const configPath = given ?? join(early.MAILBOX_MCP_DATA_DIR || defaultDataDir(early), CONFIG_FILE_NAME);
  const file = readSettingsFile(configPath, given !== null, warn);
  const sourceOf = (row: SettingRow): Source => {
    const key = envName(row);
    if (flags[key] !== undefined) return "flag";
    if (env[key] !== undefined) return "env";
    return file?.values[key] !== undefined ? "file" : "default";
  };
  return { values: { ...file?.values, ...early }, sourceOf, file, configPath };
}

/** Every row with its source, for `mailbox-mcp config`. */
export function rowsWithSources(r: ResolvedSources): Array<{ row: SettingRow; source: Source; value: string | undefined }> {
  return SETTINGS.map((row) => ({ row, source: r.sourceOf(row), value: r.values[envName(row)] }));
}
