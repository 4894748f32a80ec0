// What a pooled connection may write before the greeting (./early-session.ts): only what a waited
// start would send to the same server over the same transport, decided from the account and from
// what this process has seen of the server (./server-facts.ts).
import type { ImapFlowOptions } from "imapflow";
import { chooseLogin } from "./login-choice.ts";
import type { ServerFacts } from "./server-facts.ts";

/** The first turn: the login line, the folder to EXAMINE behind it (or none), and what a SASL continuation gets. */
export interface EarlyPlan {
  readonly line: Buffer;
  readonly examine: string | null;
  /** After the login's OK, how long the EXAMINE may take before the server is taken to have lost it. */
  readonly lostMs: number;
  /**
   * The line that ends a refused OAuth exchange (RFC 7628 §3.2.3: the server's error comes as a
   * continuation the client answers, "AQ==" for OAUTHBEARER, empty for XOAUTH2); null for LOGIN.
   */
  readonly breaker: string | null;
  /** A UID FETCH of the newest page's likely range, written behind the EXAMINE (tag PREFETCH_TAG); null when none. */
  readonly prefetch: Buffer | null;
}

/** Not imapflow's hex counter ("1", "A", ...): no command it sends can carry these tags. */
export const EARLY_TAG = "L0";
export const PREFETCH_TAG = "F0";

/** The default lostMs: more than an EXAMINE of a large folder takes (0.4-0.6 s for 20,000 messages here). */
export const EXAMINE_LOST_MS = 5_000;

export interface PlanInput {
  auth: ImapFlowOptions["auth"];
  security: string;
  facts: ServerFacts | null;
  /** The folder the first call reads, as the caller names it. */
  examine: string | null;
  lostMs?: number;
  /** The mechanism the provider documents, when the server offers both. */
  sasl?: "xoauth2" | "oauthbearer";
  /** Where the connection goes (OAUTHBEARER names them, RFC 7628 §3.1). */
  host: string;
  port: number;
  /** The first call's FETCH items, and UIDs from `low` (a remembered newest page: ./view-hints.ts), `span` of them at most. */
  prefetch?: { items: string; low: number; span: number } | null;
}

/**
 * The plan for a connection, or null where the start must wait for the greeting: STARTTLS (nothing
 * may follow it before the handshake, RFC 9051 §6.2.1); plain text to a server not seen greeting
 * without LOGINDISABLED; a password LOGIN cannot carry as a quoted string; an access token for a
 * server not seen offering its mechanism. A token's AUTHENTICATE goes alone: a refused one answers
 * with a continuation, which a command written behind it would be taken for.
 */
export function earlyPlan(input: PlanInput): EarlyPlan | null {
  const { auth, security, facts } = input;
  if (!auth || security === "starttls" || (security === "none" && (facts?.loginDisabled ?? true))) return null;
  const lostMs = input.lostMs ?? EXAMINE_LOST_MS;
  if ("accessToken" in auth && typeof auth.accessToken === "string") {
    const oauth = facts && oauthLine(auth.user, auth.accessToken, facts, input);
    return oauth ? { line: Buffer.from(`${EARLY_TAG} ${oauth.line}`, "latin1"), examine: null, lostMs, breaker: oauth.breaker, prefetch: null } : null;
  }
  const probe = "pass" in auth ? { ...auth } : auth;
  chooseLogin(new Map(), probe);
  if (probe.loginMethod !== "LOGIN" || !("pass" in probe) || typeof probe.pass !== "string") return null;
  const line = `${EARLY_TAG} LOGIN ${quoted(probe.user)} ${quoted(probe.pass)}`; // imapflow's write() ends the line
  const folder = input.examine && !input.examine.startsWith("\\") && !facts?.examineLost ? input.examine : null;
  return { line: Buffer.from(line, "latin1"), examine: folder, lostMs, breaker: null, prefetch: folder ? prefetchLine(input) : null };
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * AUTHENTICATE with the initial response, as imapflow's authenticate.js writes it: OAUTHBEARER where
 * offered (unless the provider documents XOAUTH2 and the server offers that too), else XOAUTH2.
 */
function oauthLine(user: string, token: string, facts: ServerFacts, at: PlanInput): { line: string; breaker: string } | null {
  const bearer = facts.oauthbearer && !(at.sasl === "xoauth2" && facts.xoauth2);
  if (bearer) {
    const ir = [`n,a=${user},`, `host=${at.host}`, `port=${at.port}`, `auth=Bearer ${token}`, "", ""].join("\x01");
    return { line: `AUTHENTICATE OAUTHBEARER ${Buffer.from(ir).toString("base64")}`, breaker: "AQ==" };
  }
  if (!facts.xoauth2) return null;
  const ir = [`user=${user}`, `auth=Bearer ${token}`, "", ""].join("\x01");
  return { line: `AUTHENTICATE XOAUTH2 ${Buffer.from(ir).toString("base64")}`, breaker: "" };
}

/**
 * The FETCH behind the EXAMINE, to a server seen before and not Gmail (whose labels the items leave
 * out): by UID, so it needs no EXISTS, and bounded, so new mail since cannot make it large.
 */
function prefetchLine({ prefetch: p, facts }: PlanInput): Buffer | null {
  if (!p || !facts || facts.gmail || !Number.isSafeInteger(p.low) || p.low < 1) return null;
  return Buffer.from(`${PREFETCH_TAG} UID FETCH ${p.low}:${p.low + p.span - 1} ${p.items}`, "latin1");
}

/** What a pre-login capability list says of the server. */
export function factsOf(caps: Map<string, unknown>): Partial<ServerFacts> {
  return {
    loginDisabled: caps.has("LOGINDISABLED"),
    xoauth2: caps.has("AUTH=XOAUTH2") || caps.has("AUTH=XOAUTH"),
    oauthbearer: caps.has("AUTH=OAUTHBEARER"),
    gmail: caps.has("X-GM-EXT-1"),
  };
}
