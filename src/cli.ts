// Command-line verbs: serve (default), client, healthcheck, --help, --version.
import pkg from "../package.json" with { type: "json" };
import { clientInstructions } from "./client-instructions.ts";
import { ConfigError, parseSettings, type Config, type Settings } from "./config.ts";
import { createLogger, type Logger } from "./log.ts";
import { startService } from "./service.ts";
import { prepareDataDir } from "./store/data-dir.ts";

type Env = Record<string, string | undefined>;
type Out = (text: string) => void;

export const HELP = `mailbox-mcp ${pkg.version} — an MCP server for your own mailbox (IMAP + SMTP, OAuth 2.0 + PKCE)

Usage:
  mailbox-mcp [serve] [options]   start the server (the default)
  mailbox-mcp client [options]    print how to connect Claude.ai, Claude Code, MCP Inspector, ChatGPT, VS Code
  mailbox-mcp healthcheck [opts]  exit 0 if a server answers on the configured host and port, else 1
  mailbox-mcp --help | --version

Options (each also an environment variable; flags win):
  --base-url URL    MAILBOX_MCP_BASE_URL    public origin clients use (default http://localhost:PORT)
  --host HOST       MAILBOX_MCP_HOST        listen address (default 127.0.0.1)
  --port PORT       MAILBOX_MCP_PORT        listen port (default 8787)
  --data-dir DIR    MAILBOX_MCP_DATA_DIR    store and keys (default ~/.local/share/mailbox-mcp)
  --open-registration  MAILBOX_MCP_OPEN_REGISTRATION=true
                    let clients register themselves (RFC 7591): Claude Code, ChatGPT, VS Code and
                    MCP Inspector then need only the URL (default off: one configured client)

Environment only:
  MAILBOX_MCP_CLIENT_ID, MAILBOX_MCP_CLIENT_SECRET   the OAuth client (generated at first start)
  MAILBOX_MCP_CLIENT_HOSTS         hosted client callback hosts (default claude.ai,claude.com)
  MAILBOX_MCP_SITE_ORIGIN          one more allowed web origin
  MAILBOX_MCP_EXTRA_REDIRECT_URIS  comma list of exact redirect URIs (e.g. http://localhost:8080/callback)
  MAILBOX_MCP_EXTRA_ORIGINS        comma list of further CORS origins
  MAILBOX_MCP_SECRET_KEY           32-byte base64 master key (default: secret.key in the data dir)
  MAILBOX_MCP_ALLOW_PRIVATE_HOSTS  true to allow custom mail servers on private addresses
  MAILBOX_MCP_TRUST_PROXY          true behind a reverse proxy: rate-limit by X-Forwarded-For
`;

function loadConfig(args: string[], env: Env, log: Logger): Config {
  return prepareDataDir(parseSettings(args, env), pkg.version, (m) => log.warn(m));
}

async function healthcheck(config: Settings): Promise<number> {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${config.port}/health`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    const body = (await res.json()) as { status?: string };
    return res.ok && body.status === "ok" ? 0 : 1;
  } catch {
    return 1;
  }
}

function serveForever(config: Config, log: Logger): boolean {
  let service;
  try {
    service = startService(config, log);
  } catch (err) {
    const e = err as { code?: string; message: string };
    const why = e.code === "EADDRINUSE" ? `port ${config.port} on ${config.host} is already in use` : e.message;
    process.stderr.write(`mailbox-mcp: cannot start: ${why}\n`);
    return false;
  }
  log.info(`mailbox-mcp ${pkg.version} listening`, { address: service.url, base_url: config.baseUrl });
  const loopback = /^(127\.|::1$|localhost$)/.test(config.host);
  if (!loopback && /^http:\/\/localhost:\d+$/.test(config.baseUrl)) {
    log.warn("listening beyond loopback but MAILBOX_MCP_BASE_URL is the default http://localhost:PORT: " +
      "clients on other machines will be sent to localhost. Set MAILBOX_MCP_BASE_URL to the URL they use.");
  }
  log.info("MCP endpoint", { url: `${config.baseUrl}/mcp`, client_id: config.clientId });
  log.info(`client secret: run "mailbox-mcp client" or read ${config.dataDir}/client.json`);
  const shutdown = (signal: string) => {
    log.info("shutting down", { signal });
    service.stop().finally(() => process.exit(0));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  return true;
}

/** Runs a verb; returns an exit code, or null when the server keeps running. */
export async function run(argv: string[], env: Env, out: Out = (t) => process.stdout.write(t)): Promise<number | null> {
  const log = createLogger();
  if (argv.includes("--help") || argv.includes("-h")) return out(HELP), 0;
  if (argv.includes("--version") || argv.includes("-v")) return out(`${pkg.version}\n`), 0;
  const [verb, ...rest] = argv[0] && !argv[0].startsWith("-") ? [argv[0], ...argv.slice(1)] : ["serve", ...argv];
  try {
    if (verb === "client") return out(clientInstructions(loadConfig(rest, env, log))), 0;
    if (verb === "healthcheck") return healthcheck(parseSettings(rest, env));
    if (verb !== "serve") return out(`unknown command "${verb}"\n\n${HELP}`), 2;
    return serveForever(loadConfig(rest, env, log), log) ? null : 1;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`mailbox-mcp: configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
