// A pooled connection's start in one turn (issue 42's first-call bound): the login (LOGIN, or
// AUTHENTICATE with an access token), and with LOGIN the EXAMINE of the folder the first call reads,
// are written as soon as the TCP or TLS connection is up, before the greeting. RFC 3501 §5.5 lets a
// client send a command before the previous one completes; the server reads them in order once it
// has greeted, so greeting, the login's OK and the folder's view all arrive in the first answer, and
// the call's FETCH is the second turn (four on a waited start: greeting, LOGIN, EXAMINE, FETCH).
// The connection is handed out only after the login's answer, with the post-login capability list
// (carried by its OK or asked for): no caller ever sees the greeting's list. What may be written
// early is ./early-plan.ts's to decide.
//
// A PREAUTH greeting (§7.1.4) makes the login's refusal moot; LOGIN refused because the greeting
// disabled it falls back to imapflow's login; a refused OAuth exchange's continuation is answered
// (client.ts) so the refusal comes at once; a server that loses the pipelined EXAMINE is noted and
// the connection opened again the waited way.
import { EARLY_TAG, factsOf, type EarlyPlan } from "./early-plan.ts";
import { PendingPrefetch, prefetched, prefetchResponse, type Prefetched } from "./early-prefetch.ts";
import type { ServerFacts } from "./server-facts.ts";

/** LOGIN's tagged answer, when `payload` is it (else null): whether it carried the capability list. */
export interface LoginAnswer {
  ok: boolean;
  capabilities: boolean;
  error?: Error;
}

export function loginAnswer(payload: Buffer): LoginAnswer | null {
  if (payload.length < 4 || payload.toString("latin1", 0, 3) !== `${EARLY_TAG} `) return null;
  const head = payload.toString("latin1", 0, Math.min(payload.length, 4096)).replace(/\r?\n$/, "");
  const m = /^\S+ (OK|NO|BAD)\b ?(?:\[([^\]]*)\] ?)?(.*)$/is.exec(head);
  const status = m?.[1]?.toUpperCase() ?? "BAD";
  const code = m?.[2]?.split(" ")[0]?.toUpperCase();
  if (status === "OK") return { ok: true, capabilities: code === "CAPABILITY" };
  // Worded as imapflow's login.js words a refused LOGIN, so ./errors.ts classifies it the same.
  const text = (m?.[3] ?? head).trim();
  return {
    ok: false, capabilities: false,
    error: Object.assign(new Error(`Command failed: ${text}`), {
      authenticationFailed: true, responseStatus: status, response: text, responseText: text,
      ...(code ? { serverResponseCode: code } : {}),
    }),
  };
}

/** LOGIN's answer, settled once from the response stream (or failed when the connection closes first). */
export class PendingLogin {
  readonly answer: Promise<LoginAnswer>;
  settle!: (a: LoginAnswer) => void;
  settled = false;

  constructor() {
    this.answer = new Promise((resolve) => {
      this.settle = (a) => { if (!this.settled) { this.settled = true; resolve(a); } };
    });
  }
}

/** Thrown when the pipelined EXAMINE went unanswered: ./connect.ts opens the connection again, waited. */
export class ExamineLost extends Error {
  readonly code = "ExamineLost";
}

/** `work`, or ExamineLost once `ms` pass without it settling. */
export async function unlessLost<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lost = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExamineLost("the server did not answer an EXAMINE sent behind LOGIN")), ms);
  });
  try {
    return await Promise.race([work, lost]);
  } finally {
    clearTimeout(timer);
  }
}

/** The parts of imapflow's client the early start drives (internal to imapflow 2.1.2, patched). */
export interface EarlyClient {
  write(chunk: Buffer): void;
  once(event: "close", fn: () => void): unknown;
  run(command: string, ...args: unknown[]): Promise<unknown>;
  mailboxOpen(path: string, options: { readOnly: boolean }): Promise<unknown>;
  capabilities: Map<string, unknown>;
  mailbox: { path?: string } | false | null;
  state: unknown;
  states: { NOT_AUTHENTICATED: unknown; AUTHENTICATED: unknown };
  authenticated: unknown;
  expectCapabilityUpdate: boolean;
  /** ./client.ts's counters of other clients' changes (none before the start completes, unless the folder changed). */
  changes: number;
  flagChanges: number;
  // imapflow's own, hooked while a start with an EXAMINE runs (hookStart).
  greetingReceived?: boolean;
  untaggedHandlers: Record<string, unknown>;
  normalizeUntaggedCommand(command: string, attributes: unknown): string;
  getUntaggedHandler?(command: string, attributes: unknown): unknown;
  send?(data: unknown): Promise<void>;
}

/** What was sent in the first turn, waiting for its answers. */
export interface EarlyStart {
  login: PendingLogin;
  /** The pipelined EXAMINE: true once the folder is open, false when refused (a missing folder); null when none was sent. */
  opened: Promise<boolean> | null;
  lostMs: number;
  /** The login was LOGIN (not a token's AUTHENTICATE): a refusal because the greeting disabled it may fall back. */
  byLogin: boolean;
  /** The newest page's UID FETCH behind the EXAMINE (./early-prefetch.ts); null when none. */
  prefetch: PendingPrefetch | null;
  /** Its answers once the start is complete, for the first call; null when there are none to use. */
  result: Prefetched | null;
  /** Takes back what the start hooked into the client (hookStart), once it is complete. */
  release: () => void;
}

/**
 * Writes the first turn as soon as the connection is up. The EXAMINE goes through imapflow (its
 * view of the folder is built from the answer as for any EXAMINE), marked authenticated so it is
 * sent now; until the greeting the client reads no answer as the EXAMINE's (client.ts).
 */
export function sendEarly(client: EarlyClient, plan: EarlyPlan): EarlyStart {
  const login = new PendingLogin();
  client.once("close", () => login.settle({ ok: false, capabilities: false, error: new Error("Connection closed") }));
  client.write(plan.line);
  const start: EarlyStart = { login, opened: null, lostMs: plan.lostMs, byLogin: plan.breaker === null, prefetch: null, result: null, release: () => {} };
  if (!plan.examine) return start;
  client.state = client.states.AUTHENTICATED;
  const prefetch = plan.prefetch && new PendingPrefetch(plan.prefetch);
  if (prefetch) client.once("close", () => prefetch.settle(false));
  start.prefetch = prefetch;
  start.release = hookStart(client, start);
  start.opened = client.mailboxOpen(plan.examine, { readOnly: true }).then(() => true, () => false);
  return start;
}

/**
 * While a start with an EXAMINE runs, on this client only (a connection's later commands and every
 * other connection run imapflow's own code): before the greeting no response is taken as the
 * EXAMINE's (imapflow gives an untagged response to the command in flight first: the greeting, OK,
 * PREAUTH or BYE, goes to its greeting handlers); and the prefetch goes on the wire right behind the
 * EXAMINE (imapflow writes a command microtasks after exec). Returns what takes the hooks back.
 */
function hookStart(client: EarlyClient, start: EarlyStart): () => void {
  const own = Object.getPrototypeOf(client) as Required<Pick<EarlyClient, "getUntaggedHandler" | "send">>;
  client.getUntaggedHandler = (command, attributes) => (client.greetingReceived
    ? own.getUntaggedHandler.call(client, command, attributes)
    : client.untaggedHandlers[client.normalizeUntaggedCommand(command, attributes)]);
  client.send = async (data) => {
    await own.send.call(client, data);
    afterSend(client, start);
  };
  return () => {
    delete client.getUntaggedHandler;
    delete client.send;
  };
}

/**
 * Completes an early start once the greeting has come: true when the connection is logged in (and
 * its folder open, if one was sent and exists), false when the waited login must run instead (LOGIN
 * refused because the greeting disabled it). `learn` records what the greeting showed of the server.
 */
export async function finishEarly(client: EarlyClient, start: EarlyStart, learn: (f: Partial<ServerFacts>) => void): Promise<boolean> {
  const preauth = client.authenticated === true; // set by imapflow on a PREAUTH greeting only, at this point
  const disabled = client.capabilities.has("LOGINDISABLED");
  if (client.capabilities.size) learn(factsOf(client.capabilities));
  const answer = await start.login.answer;
  if (!answer.ok && !preauth) {
    if (!disabled || !start.byLogin) throw answer.error;
    await start.opened;
    client.state = client.states.NOT_AUTHENTICATED;
    return false;
  }
  client.authenticated = true;
  if (client.state === client.states.NOT_AUTHENTICATED) client.state = client.states.AUTHENTICATED;
  if (!answer.capabilities && !(preauth && client.capabilities.size)) {
    client.expectCapabilityUpdate = true;
    await client.run("CAPABILITY");
  }
  if (!start.opened) return true;
  try {
    const open = await unlessLost(start.opened, start.lostMs);
    if (open && start.prefetch && client.mailbox) {
      const changed = () => client.changes + client.flagChanges > 0;
      start.result = await unlessLost(prefetched(start.prefetch, client.mailbox.path!, client.mailbox, changed), start.lostMs);
    }
  } catch (err) {
    learn({ examineLost: true });
    throw err;
  }
  return true;
}

/**
 * A response read while the start's own commands run (./client.ts, before imapflow parses it): the
 * login's tagged answer settles it (imapflow still reads its [CAPABILITY] code and ignores the tag);
 * a refused OAuth exchange's continuation is answered ("answered": imapflow must not see it); the
 * prefetch's bytes are counted against the one-command bound ("too large" past it).
 */
export function earlyResponse(client: EarlyClient, start: EarlyStart, plan: EarlyPlan, data: { payload: Buffer; literals?: Buffer[] }): "answered" | "too large" | null {
  if (!start.login.settled) {
    const answer = loginAnswer(data.payload);
    if (answer) start.login.settle(answer);
    else if (plan.breaker !== null && data.payload[0] === 0x2b /* + */) {
      client.write(Buffer.from(plan.breaker));
      return "answered";
    }
  }
  const p = start.prefetch;
  if (p?.written && !p.settled && prefetchResponse(p, data.payload, (data.literals ?? []).reduce((n, l) => n + l.length, 0)) === false) return "too large";
  return null;
}

/** After imapflow wrote a command: the prefetch goes on the wire right behind the EXAMINE it needs. */
function afterSend(client: EarlyClient, start: EarlyStart): void {
  const p = start.prefetch;
  if (!p || p.written) return;
  p.written = true;
  client.write(p.line);
}
