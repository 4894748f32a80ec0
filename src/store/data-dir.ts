// The data dir (docs/design.md §1): created 0700; holds the SQLite store, the master key file (0600, base64)
// and the generated OAuth client id/secret, so a restart keeps the same client. With a database URL
// there is no data dir: the instances share the store, so they must share the key and the client
// too, and those come from configuration, never from a file one instance generated.
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, decodeSecretKey, type Config, type Settings } from "../config.ts";
import { randomHex } from "./crypto.ts";

export const KEY_FILE = "secret.key";
export const CLIENT_FILE = "client.json";
export const DB_FILE = "mailbox-mcp.sqlite";

type Warn = (message: string) => void;

function ensureDir(dir: string, warn: Warn): void {
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const mode = statSync(dir).mode & 0o777;
    if (mode !== 0o700) {
      chmodSync(dir, 0o700);
      warn(`data dir ${dir} had mode ${mode.toString(8)}; tightened to 700`);
    }
    accessSync(dir, constants.W_OK | constants.R_OK);
  } catch (err) {
    throw new ConfigError("MAILBOX_MCP_DATA_DIR", `${dir} is not a writable directory (${(err as Error).message})`);
  }
}

function writeSecretFile(path: string, text: string): void {
  // "wx": never overwrite a key another process just wrote.
  writeFileSync(path, text, { mode: 0o600, flag: "wx" });
}

function loadOrCreateKey(dir: string, warn: Warn): Uint8Array {
  const path = join(dir, KEY_FILE);
  if (!existsSync(path)) writeSecretFile(path, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64") + "\n");
  const mode = statSync(path).mode & 0o777;
  if (mode !== 0o600) {
    chmodSync(path, 0o600);
    warn(`key file ${path} had mode ${mode.toString(8)}; tightened to 600`);
  }
  return decodeSecretKey(path, readFileSync(path, "utf8"));
}

function loadOrCreateClient(dir: string): { clientId: string; clientSecret: string } {
  const path = join(dir, CLIENT_FILE);
  if (!existsSync(path)) {
    const client = { client_id: `mailbox-mcp-${randomHex(8)}`, client_secret: randomHex(32) };
    writeSecretFile(path, JSON.stringify(client, null, 2) + "\n");
  }
  const parsed = JSON.parse(readFileSync(path, "utf8")) as { client_id?: unknown; client_secret?: unknown };
  if (typeof parsed.client_id !== "string" || typeof parsed.client_secret !== "string") {
    throw new ConfigError(path, "is not a client file with client_id and client_secret");
  }
  return { clientId: parsed.client_id, clientSecret: parsed.client_secret };
}

/** What several instances on one database must be given alike (docs/deploy.md). */
const SHARED: Array<{ key: string; field: "secretKey" | "clientId" | "clientSecret"; how: string }> = [
  { key: "MAILBOX_MCP_SECRET_KEY", field: "secretKey", how: "make one with: openssl rand -base64 32" },
  { key: "MAILBOX_MCP_CLIENT_ID", field: "clientId", how: "any name, e.g. mailbox-mcp" },
  { key: "MAILBOX_MCP_CLIENT_SECRET", field: "clientSecret", how: "make one with: openssl rand -hex 32" },
];

function sharedConfig(settings: Settings, version: string): Config {
  for (const s of SHARED) {
    if (settings[s.field] === null) {
      throw new ConfigError(s.key, `is required with MAILBOX_MCP_DATABASE_URL: every instance must be given the same one (${s.how})`);
    }
  }
  return { ...settings, secretKey: settings.secretKey!, clientId: settings.clientId!, clientSecret: settings.clientSecret!, version };
}

/** Create or reuse the data dir and fill in what configuration left to it (nothing, with a database URL). */
export function prepareDataDir(settings: Settings, version: string, warn: Warn): Config {
  if (settings.databaseUrl) return sharedConfig(settings, version);
  ensureDir(settings.dataDir, warn);
  const secretKey = settings.secretKey ?? loadOrCreateKey(settings.dataDir, warn);
  const stored = settings.clientId && settings.clientSecret ? null : loadOrCreateClient(settings.dataDir);
  return {
    ...settings,
    secretKey,
    clientId: settings.clientId ?? stored!.clientId,
    clientSecret: settings.clientSecret ?? stored!.clientSecret,
    version,
  };
}
