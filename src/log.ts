// One-line structured logs on stderr. Callers pass only safe fields: never a token, code, password,
// query string or Authorization header (the request logger logs the path without its query).
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

type Sink = (line: string) => void;

function format(level: string, msg: string, fields?: Record<string, unknown>): string {
  const parts = [new Date().toISOString(), level, msg];
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (v === undefined) continue;
    parts.push(`${k}=${typeof v === "string" && !/\s|"/.test(v) ? v : JSON.stringify(v)}`);
  }
  return parts.join(" ");
}

export function createLogger(sink: Sink = (line) => process.stderr.write(line + "\n")): Logger {
  return {
    info: (msg, fields) => sink(format("INFO", msg, fields)),
    warn: (msg, fields) => sink(format("WARN", msg, fields)),
    error: (msg, fields) => sink(format("ERROR", msg, fields)),
  };
}

/** A logger that keeps its lines in memory: for tests that assert nothing secret is logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger((l) => lines.push(l)), { lines });
}

export const silentLogger: Logger = createLogger(() => {});
