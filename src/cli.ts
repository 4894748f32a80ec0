// Command-line verbs: serve (default), client, healthcheck, config, the owner's verbs, --help, --version.
import { basename, relative } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { checkServeSettings, ConfigError, parseSettings, type Config, type Settings } from "./config.ts";
import { settingsHelp } from "./config/help.ts";
import { rowByFlag } from "./config/settings-table.ts";
import { createLogger, type Logger } from "./log.ts";
import { OAuthProviders } from "./oauth/provider-sign-in/registry.ts";
import { startService, storeLabel } from "./service.ts";
import { versionLine } from "./build-commit.ts";
import { publicUrlNote } from "./public-url-note.ts";
import { prepareDataDir } from "./store/data-dir.ts";
import { connectGuide, guideText } from "./views/connect-guide.ts";
import { activityVerb } from "./verbs/activity.ts";
import { configVerb } from "./verbs/config.ts";
import { grantsVerb, revokeVerb } from "./verbs/grants.ts";
import { openStoreForVerb, splitArgs, VerbError } from "./verbs/verb-args.ts";

type Env = Record<string, string | undefined>;
type Out = (text: string) => void;

const HEALTH_TIMEOUT_MS = 3000;

export const HELP = `mailbox-mcp ${pkg.version} — an MCP server for your own mailbox (IMAP + SMTP, OAuth 2.0 + PKCE)

Usage:
  mailbox-mcp [serve] [options]   start the server (the default)
  mailbox-mcp client [options]    print how to connect Claude.ai, Claude Code, Codex CLI, Gemini CLI,
                                  MCP Inspector, ChatGPT, VS Code
  mailbox-mcp healthcheck [opts]  exit 0 if a server answers on the configured host and port, else 1
  mailbox-mcp grants [--json]     list the live grants: which app has access to which mailbox
  mailbox-mcp revoke ID|EMAIL     revoke a grant (or every grant of an address); a running server
                                  on the same data dir ends its sessions within 2 seconds
  mailbox-mcp activity [--grant ID] [--since YYYY-MM-DD] [--json]
                                  what the apps did: every draft, send, mark and move (90 days)
  mailbox-mcp config [options]    print every setting in effect and where it came from (flag, env,
                                  file, default); secrets masked
  mailbox-mcp --help | --version

The owner's verbs (grants, revoke, activity) take the server's settings and work on its store.

${settingsHelp()}`;

function loadConfig(args: string[], env: Env, log: Logger): Config {
  return prepareDataDir(parseSettings(args, env, (m) => log.warn(m)), pkg.version, (m) => log.warn(m));
}

/** The configuration `serve` runs with: checked further before anything is created (checkServeSettings). */
function loadServeConfig(args: string[], env: Env, log: Logger): Config {
  const settings = parseSettings(args, env, (m) => log.warn(m));
  checkServeSettings(settings);
  return prepareDataDir(settings, pkg.version, (m) => log.warn(m));
}

export function clientInstructions(config: Config): string {
  const signInProviders = new OAuthProviders(config.oauth).list().map((p) => p.label);
  return guideText(connectGuide({ ...config, clientSecret: config.clientSecret, signInProviders })) + publicUrlNote(config.baseUrl);
}

/** Exit 0 when a server answers GET /health with status "ok"; otherwise 1 and one line on stderr saying why. */
async function healthcheck(config: Settings, err: Out): Promise<number> {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${config.port}/health`;
  const problem = await healthProblem(url);
  if (problem === null) return 0;
  err(`mailbox-mcp healthcheck: ${url}: ${problem}\n`);
  return 1;
}

async function healthProblem(url: string): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
  } catch (e) {
    const { name, code } = e as { name?: string; code?: string };
    if (name === "TimeoutError") return `no answer within ${HEALTH_TIMEOUT_MS / 1000} s`;
    if (code === "ConnectionRefused" || code === "ECONNREFUSED") return "connection refused: no server is listening there (check --host/--port)";
    return `request failed (${code ?? name ?? "unknown error"})`;
  }
  const body = (await res.json().catch(() => null)) as { status?: unknown } | null;
  if (!res.ok) return `answered HTTP ${res.status}`;
  if (body?.status !== "ok") return `answered, but not with {"status": "ok"}: is this a mailbox-mcp server?`;
  return null;
}

/**
 * How the person started us, so the hints we print can be pasted back as they are: the executable
 * (by name when it is on PATH), `bun run start` from a checkout, or `bun <file>`.
 */
export function invocation(env: Env, main = Bun.main, execPath = process.execPath, cwd = process.cwd()): string {
  const compiled = main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);
  if (compiled) {
    const name = basename(execPath);
    if (Bun.which(name) === execPath) return name;
    const rel = relative(cwd, execPath);
    return rel.startsWith("..") ? execPath : `./${rel}`;
  }
  if (env.npm_lifecycle_event === "start") return "bun run start";
  const rel = relative(cwd, main);
  return `bun ${rel.startsWith("..") ? main : rel}`;
}

/** A word quoted for a POSIX shell when it needs it. */
const shellWord = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`);

/**
 * The configuration flags a verb was given, to repeat in a hint for another verb. The hint goes to the
 * log, so a secret's flag is left out with its value (the settings file or environment can hold it).
 */
export function flagsOf(args: string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.split("=")[0]!;
    const row = rowByFlag(name);
    if (!row?.secret) kept.push(args[i]!);
    if (row && row.kind !== "switch" && !args[i]!.includes("=")) {
      if (!row.secret && i + 1 < args.length) kept.push(args[i + 1]!);
      i++;
    }
  }
  return kept.map((a) => ` ${shellWord(a)}`).join("");
}

async function serveForever(config: Config, log: Logger, clientCommand: string): Promise<boolean> {
  let service;
  try {
    service = await startService(config, log);
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
  log.info("MCP endpoint", { url: `${config.baseUrl}/mcp`, client_id: config.clientId, store: storeLabel(config), imap_connections: service.imapMaxConnections });
  if (!config.databaseUrl) log.info(`client secret: run "${clientCommand}" or read ${config.dataDir}/client.json`);
  const shutdown = (signal: string) => {
    log.info("shutting down", { signal });
    service.stop().finally(() => process.exit(0));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  return true;
}

const OWNER_VERBS = new Set(["grants", "revoke", "activity"]);

/** grants, revoke, activity: on the server's store; errors are one line and an exit code (1, or 2 for usage). */
async function ownerVerb(verb: string, args: string[], env: Env, out: Out, err: Out, log: Logger): Promise<number> {
  const command = invocation(env);
  try {
    const a = splitArgs(args, verb === "activity" ? ["--grant", "--since"] : [], ["--json"]);
    if (verb === "revoke" && a.positional.length !== 1) throw new VerbError(`usage: ${command} revoke <grant-id | email address>`, 2);
    if (verb !== "revoke" && a.positional.length) throw new VerbError(`${verb} takes no argument "${a.positional[0]}"`, 2);
    const { config, store } = await openStoreForVerb(parseSettings(a.config, env, (m) => log.warn(m)), (s) => prepareDataDir(s, pkg.version, (m) => log.warn(m)));
    try {
      const json = a.flags.has("--json");
      if (verb === "grants") await grantsVerb(store, config, json, out);
      else if (verb === "activity") await activityVerb(store, config, { grant: a.options["--grant"], since: a.options["--since"], json }, out);
      else await revokeVerb(store, config, a.positional[0]!, command, out);
    } finally {
      await store.close();
    }
    return 0;
  } catch (e) {
    if (!(e instanceof VerbError)) throw e;
    err(`mailbox-mcp ${verb}: ${e.message}\n`);
    return e.exitCode;
  }
}

/** Runs a verb; returns an exit code, or null when the server keeps running. */
export async function run(argv: string[], env: Env, out: Out = (t) => process.stdout.write(t), err: Out = (t) => process.stderr.write(t)): Promise<number | null> {
  const log = createLogger();
  if (argv.includes("--help") || argv.includes("-h")) return out(HELP), 0;
  if (argv.includes("--version") || argv.includes("-v")) return out(`${versionLine(pkg.version)}\n`), 0;
  const [verb, ...rest] = argv[0] && !argv[0].startsWith("-") ? [argv[0], ...argv.slice(1)] : ["serve", ...argv];
  try {
    if (OWNER_VERBS.has(verb)) return await ownerVerb(verb, rest, env, out, err, log);
    if (verb === "client") return out(clientInstructions(loadConfig(rest, env, log))), 0;
    if (verb === "healthcheck") return healthcheck(parseSettings(rest, env, (m) => log.warn(m)), err);
    if (verb === "config") return configVerb(rest, env, out, (m) => log.warn(m)), 0;
    if (verb !== "serve") return out(`unknown command "${verb}"\n\n${HELP}`), 2;
    return (await serveForever(loadServeConfig(rest, env, log), log, `${invocation(env)} client${flagsOf(rest)}`)) ? null : 1;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`mailbox-mcp: configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
