// What the owner's verbs (grants, revoke, activity) share: their own options split from the
// configuration flags, errors with exit codes, and the store the server uses (docs/design.md §1: each verb
// takes the same configuration as `serve` and works on the same store).
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config, Settings } from "../config.ts";
import { rowByFlag } from "../config/settings-table.ts";
import { CLIENT_IDLE_MS } from "../oauth/protocol/registration.ts";
import { DB_FILE } from "../store/data-dir.ts";
import { KeyMismatchError, openStore, SchemaMismatchError, type Store } from "../store/store.ts";

export type Out = (text: string) => void;

/** A verb that could not do what was asked: one line on stderr, exit 1 (2 for a usage error). */
export class VerbError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 = 1) {
    super(message);
    this.name = "VerbError";
  }
}

export interface VerbArgs {
  /** Values of the verb's own options (`--grant ID` or `--grant=ID`). */
  options: Record<string, string>;
  /** The verb's own boolean flags that were given (`--json`). */
  flags: Set<string>;
  positional: string[];
  /** Everything else: configuration flags for parseSettings. */
  config: string[];
}

/**
 * Splits a verb's arguments. A configuration flag other than a switch takes a value
 * (../config/settings-table.ts), so anything after one is its value; a bare word elsewhere is positional.
 */
export function splitArgs(args: string[], optionNames: string[], flagNames: string[] = []): VerbArgs {
  const out: VerbArgs = { options: {}, flags: new Set(), positional: [], config: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flagNames.includes(arg)) {
      out.flags.add(arg);
    } else if (optionNames.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new VerbError(`${name} needs a value`, 2);
      out.options[name] = value;
    } else if (arg.startsWith("-")) {
      out.config.push(arg);
      const takesValue = rowByFlag(name)?.kind !== "switch";
      if (takesValue && inline === undefined && i + 1 < args.length) out.config.push(args[++i]!);
    } else {
      out.positional.push(arg);
    }
  }
  return out;
}

/**
 * The server's store, opened for a verb: the database at --database-url, else the SQLite file in
 * the data dir. A data dir without a store means the server never ran there: say so rather than
 * create an empty one under the wrong directory.
 */
export async function openStoreForVerb(settings: Settings, prepare: (s: Settings) => Config): Promise<{ config: Config; store: Store }> {
  const path = join(settings.dataDir, DB_FILE);
  if (!settings.databaseUrl && !existsSync(path)) {
    throw new VerbError(`no store at ${path}: start the server once there, or give the same --data-dir (MAILBOX_MCP_DATA_DIR) as the server`);
  }
  const config = prepare(settings);
  try {
    const store = await openStore({
      databaseUrl: config.databaseUrl, sqlitePath: path, masterKey: config.secretKey, clock: Date.now, clientIdleMs: CLIENT_IDLE_MS,
      role: "tool",
    });
    return { config, store };
  } catch (err) {
    if (err instanceof KeyMismatchError || err instanceof SchemaMismatchError) throw new VerbError(err.message);
    throw err;
  }
}

/** "2026-11-23 14:02 UTC": minutes are enough to tell grants and calls apart for a person. */
export function utcMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}
