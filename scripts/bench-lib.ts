// Measuring helpers for scripts/bench.ts: timing, percentiles, the server child process, RSS, and
// three ways to call a tool over MCP: the official client, and raw JSON-RPC over fetch in each
// protocol era (2025-11-25 on a session, 2026-07-28 without one).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { MailAccount } from "../src/mail/account.ts";
import { callOk } from "../test/support/mcp-client.ts";

export const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);

/** Calls a tool and returns its structuredContent; throws on isError. */
export interface McpCaller {
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
}

export const sdkCaller = (client: Client): McpCaller => ({ call: (name, args) => callOk(client, name, args) });

/** The least a client can do: POST one JSON-RPC tools/call on the SDK client's session, parse the answer. */
export function rawCaller(url: string, token: string, sessionId: string): McpCaller {
  let id = 1_000_000;
  const headers = {
    authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-session-id": sessionId, "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
  };
  return {
    async call(name, args) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } });
      const res = parseAnswer(await (await fetch(url, { method: "POST", headers, body })).text());
      if (!res.result || res.result.isError) throw new Error(`${name} failed: ${JSON.stringify(res)}`);
      return res.result.structuredContent;
    },
  };
}

/**
 * The least a 2026-07-28 client does: POST one tools/call with its `_meta` envelope and the
 * MCP-Protocol-Version / Mcp-Method / Mcp-Name headers, no session, parse the JSON answer.
 */
export function modernCaller(url: string, token: string): McpCaller {
  let id = 2_000_000;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
  };
  return {
    async call(name, args) {
      const headers = {
        authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN_REVISION, "mcp-method": "tools/call", "mcp-name": name,
      };
      const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } });
      const res = parseAnswer(await (await fetch(url, { method: "POST", headers, body })).text());
      if (!res.result || res.result.isError) throw new Error(`${name} failed: ${JSON.stringify(res)}`);
      return res.result.structuredContent;
    },
  };
}

export const MODERN_REVISION = "2026-07-28";

/** A new 2025-era session opened the way a client does (initialize, then notifications/initialized); its id. */
export async function openRawSession(url: string, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(url, {
    method: "POST", headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench", version: "0" } } }),
  });
  await init.text();
  const sessionId = init.headers.get("mcp-session-id");
  if (!sessionId) throw new Error(`initialize failed: ${init.status}`);
  const note = await fetch(url, {
    method: "POST", headers: { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": LATEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await note.text();
  return sessionId;
}

/** A JSON-RPC answer sent as plain JSON or as one SSE `data:` event. */
function parseAnswer(text: string): { result?: { isError?: boolean; structuredContent?: unknown } } {
  const data = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) ?? "{}";
  return JSON.parse(data);
}

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;

export async function time(fn: () => Promise<unknown>, n = ITERATIONS): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 0.5), p95: pct(samples, 0.95) };
}

export interface ServerProc {
  port: number;
  tokens: string[];
  pid: number;
  kill(): void;
  /** The server's own process.cpuUsage(), user + system, in µs. */
  cpuMicros(): Promise<number>;
  /** BENCH_CALLGRIND=1 only: starts counting; the function returned stops and gives the instructions executed meanwhile. */
  countInstructions(): Promise<() => Promise<number>>;
  /** RSS and JS heap in bytes, after a full GC in the server. */
  memory(): Promise<{ rss: number; heap: number }>;
  /** The IMAP pool's counters (src/mail/imap/pool.ts PoolStats). */
  pool(): Promise<{ open: number; max: number; opened: number; evicted: number; idleClosed: number }>;
  /** Runs the server's sweeper now (idle sessions, connections and credentials). */
  sweep(): Promise<void>;
  /** The server's worst event-loop delay (ms) since the previous call. */
  lag(): Promise<number>;
}

/** Lines of a child's stdout, one at a time. */
function lineReader(stream: ReadableStream<Uint8Array>): () => Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return async () => {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("bench child exited");
      text += decoder.decode(value, { stream: true });
    }
    const nl = text.indexOf("\n");
    const line = text.slice(0, nl);
    text = text.slice(nl + 1);
    return line;
  };
}

/**
 * BENCH_PROFILE=DIR: each server process writes a CPU profile (.cpuprofile and markdown) into DIR
 * when it is stopped (Bun writes it at a clean exit; bench-server.ts exits on SIGTERM).
 */
function profileFlags(script: string): string[] {
  const dir = process.env.BENCH_PROFILE;
  if (!dir || !script.endsWith("bench-server.ts")) return [];
  return ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${dir}`];
}

/**
 * BENCH_CALLGRIND=1: each server process runs under valgrind's callgrind, which counts the
 * instructions it executes: a figure other people's load on this shared machine cannot move. The
 * server starts and warms up uninstrumented (still several times slower than without valgrind);
 * instrumentation is on only while a measurement runs (ServerProc.countInstructions).
 */
export const CALLGRIND = process.env.BENCH_CALLGRIND === "1";

function underCallgrind(script: string): string[] {
  if (!CALLGRIND || !script.endsWith("bench-server.ts")) return [];
  return ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null", "-q"];
}

const control = (pid: number, ...args: string[]) =>
  Bun.spawn(["callgrind_control", ...args, String(pid)], { stdout: "pipe", stderr: "ignore" });

/** Instrumentation on and counters zeroed; the returned function reads the instructions since (all threads) and turns it off. */
async function countInstructions(pid: number): Promise<() => Promise<number>> {
  await control(pid, "-i", "on").exited;
  await control(pid, "-z").exited;
  return async () => {
    const out = await new Response(control(pid, "-e", "Ir").stdout).text();
    await control(pid, "-i", "off").exited;
    let sum = 0;
    for (const m of out.matchAll(/^\s*Th \d+\s+([\d,]+)/gm)) sum += Number(m[1]!.replace(/,/g, ""));
    return sum;
  };
}

/** Spawns a bench child process and returns it with the JSON line it prints once ready. */
async function spawnReady<T>(args: string[], env: Record<string, string> = {}): Promise<{ proc: Bun.Subprocess<"pipe", "pipe", "inherit">; ready: T; nextLine: () => Promise<string> }> {
  const proc = Bun.spawn([...underCallgrind(args[0]!), "bun", ...profileFlags(args[0]!), ...args], {
    stdin: "pipe", stdout: "pipe", stderr: "inherit", env: { ...process.env, ...env },
  });
  const nextLine = lineReader(proc.stdout);
  const first = await nextLine().catch(() => { throw new Error(`${args[0]} exited before it was ready`); });
  return { proc, ready: JSON.parse(first) as T, nextLine };
}

export interface ServerOptions {
  /** A postgres:// URL for the store (default a SQLite file). */
  databaseUrl?: string;
  /** Tokens to reuse instead of issuing (a second instance on the same store). */
  tokens?: string[];
  /** Environment for the server process (MAILBOX_MCP_IMAP_MAX_CONNECTIONS, BENCH_IMAP_IDLE_MS). */
  env?: Record<string, string>;
}

export async function startServer(accounts: MailAccount[], opts: ServerOptions = {}): Promise<ServerProc> {
  // An argument holds at most 128 KB on Linux: a thousand accounts go through a file.
  const json = JSON.stringify(accounts);
  const file = json.length > 64 * 1024 ? join(mkdtempSync(join(tmpdir(), "bench-accounts-")), "accounts.json") : null;
  if (file) writeFileSync(file, json, { mode: 0o600 });
  const args = ["scripts/bench-server.ts", file ? `@${file}` : json, opts.databaseUrl ?? ""];
  if (opts.tokens) args.push("reuse", JSON.stringify(opts.tokens));
  const { proc, ready, nextLine } = await spawnReady<{ port: number; tokens: string[] }>(args, opts.env);
  if (file) rmSync(dirname(file), { recursive: true, force: true });
  // One question at a time: answers come back in order on the child's stdout.
  let turn: Promise<unknown> = Promise.resolve();
  const ask = <T>(question: string): Promise<T> => {
    const answer = turn.then(async () => {
      proc.stdin.write(`${question}\n`);
      proc.stdin.flush();
      return JSON.parse(await nextLine()) as T;
    });
    turn = answer.catch(() => {});
    return answer;
  };
  return {
    ...ready,
    pid: proc.pid,
    kill: () => proc.kill(),
    async cpuMicros() {
      const { user, system } = await ask<{ user: number; system: number }>("cpu");
      return user + system;
    },
    countInstructions: () => countInstructions(proc.pid),
    memory: () => ask("mem"),
    pool: () => ask("pool"),
    sweep: async () => void (await ask("sweep")),
    lag: async () => (await ask<{ max: number }>("lag")).max,
  };
}

/** scripts/bench-smtp.ts: an SMTP server for the harness users, in a process of its own. */
export async function startSmtpSink(users: Record<string, unknown>): Promise<{ port: number; kill(): void }> {
  const { proc, ready } = await spawnReady<{ port: number }>(["scripts/bench-smtp.ts", JSON.stringify(users)]);
  return { port: ready.port, kill: () => proc.kill() };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

export const ms = (n: number) => n.toFixed(2).padStart(6);
export const verdict = (ok: boolean) => (ok ? "ok" : "OVER TARGET");

/**
 * Times several calls round-robin, so load from other processes hits them all alike. The order turns
 * by one each iteration: in a fixed order the call after the direct one always met what that call
 * left running (the bench process's garbage, the mail server still at work) and read dearer than
 * the columns after it.
 */
export async function timeTogether(fns: Array<() => Promise<unknown>>, n = ITERATIONS, warmup = WARMUP): Promise<Array<{ p50: number; p95: number }>> {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const samples = fns.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < fns.length; j++) {
      const k = (i + j) % fns.length;
      const t = performance.now();
      await fns[k]!();
      samples[k]!.push(performance.now() - t);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b)).map((s) => ({ p50: pct(s, 0.5), p95: pct(s, 0.95) }));
}

