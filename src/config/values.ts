// The checks of single setting values (docs/design.md §1): each turns the text of one setting, however
// it was given, into its value, or throws a ConfigError naming the setting's environment name.
import { parseAllowedMailboxes, type AllowedMailboxes } from "../allowed-mailboxes.ts";
import { ConfigError } from "./error.ts";

export interface SendLimits {
  perHour: number;
  perDay: number;
}

/** MAILBOX_MCP_SEND_LIMITS' default: room for a busy person's day, not for a runaway loop. */
export const DEFAULT_SEND_LIMITS: SendLimits = { perHour: 30, perDay: 200 };

export function origin(key: string, value: string): string {
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

export function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

export function bool(key: string, value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(key, `"${value}" is not true or false`);
}

export function port(key: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) throw new ConfigError(key, `"${value}" is not a port (1-65535)`);
  return n;
}

/** A Postgres URL as Bun.SQL takes it; its password is never echoed back in an error. */
export function databaseUrl(value: string | undefined): string | null {
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

/** A positive whole number, or null when unset or "auto". */
export function countOrAuto(key: string, value: string | undefined): number | null {
  if (value === undefined || value.trim() === "" || value.trim() === "auto") return null;
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < 1 || !Number.isSafeInteger(n)) throw new ConfigError(key, `"${value}" is not a whole number of at least 1 (or "auto")`);
  return n;
}

export function allowedMailboxes(value: string | undefined): AllowedMailboxes | null {
  if (value === undefined || value.trim() === "") return null;
  const parsed = parseAllowedMailboxes(value);
  if (typeof parsed === "string") throw new ConfigError("MAILBOX_MCP_ALLOWED_MAILBOXES", parsed);
  return parsed;
}
