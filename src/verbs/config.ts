// `mailbox-mcp config [options]` (docs/design.md §1): every setting in effect as `key = value  # source`,
// in the settings file's syntax so a line can be copied into it. Secrets are masked: the verb's output
// ends up in terminals, tickets and chat, and must never carry a key or a password.
import { settingsFrom } from "../config.ts";
import { resolveSources, type Env, type ResolvedSources, type Source } from "../config/sources.ts";
import { envName, SETTINGS, type SettingRow } from "../config/settings-table.ts";
import { printable } from "./printable.ts";
import type { Out } from "./verb-args.ts";

export const MASK = "********";

/** The value as it may be shown: a secret masked whole, a URL's password masked. */
export function masked(row: SettingRow, value: string): string {
  if (row.secret === "whole") return MASK;
  if (row.secret === "password") {
    if (!URL.canParse(value)) return MASK;
    const url = new URL(value);
    if (url.password) url.password = MASK;
    return url.href;
  }
  return value;
}

function line(row: SettingRow, value: string | undefined, source: Source): string {
  const bare = (row.kind === "switch" || row.kind === "number") && /^\w+$/.test(value ?? "");
  const shown = source === "default" || value === undefined ? row.default : bare ? value : JSON.stringify(masked(row, value));
  return `${row.name} = ${shown}  # ${source}`;
}

/** The effective settings, one line each, checked first: a bad value stops the verb as it stops start-up. */
export function formatSettings(r: ResolvedSources): string {
  const settings = settingsFrom(r);
  const lines = SETTINGS.map((row) => {
    if (row.name === "data_dir") return `${row.name} = ${JSON.stringify(settings.dataDir)}  # ${r.sourceOf(row)}`;
    if (row.name === "config_file") return `${row.name} = ${JSON.stringify(r.configPath)}  # ${r.sourceOf(row)}${r.file ? "" : " (no such file)"}`;
    return line(row, r.values[envName(row)], r.sourceOf(row));
  });
  const providers = r.file?.providers;
  if (providers && r.sourceOf(SETTINGS.find((s) => s.name === "oauth_providers_file")!) === "default") {
    const ids = providers.map((p) => String((p as { id?: unknown })?.id ?? "?"));
    lines.push(`# [[oauth_providers]]: ${ids.join(", ")}  # file`);
  }
  return lines.map(printable).join("\n") + "\n";
}

export function configVerb(args: string[], env: Env, out: Out, warn: (message: string) => void): void {
  out(formatSettings(resolveSources(args, env, warn)));
}
