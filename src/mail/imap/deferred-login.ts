// LOGIN pipelined with the first command of a pooled connection, instead of waited for: RFC 3501
// §5.5 lets a client send a command before the previous one completes, and LOGIN (§6.2.3) is
// one line whose answer the next command does not need (its tagged OK arrives first, in order).
// A first call on a cold connection then pays greeting, LOGIN + its first command, and what
// follows: one round trip less. When LOGIN fails, the first command fails with LOGIN's own error
// (as imapflow's login.js words it: authenticationFailed, the server's text) and the connection
// is closed; the first command's own "not authenticated" answer is never read.
import type { ImapFlowOptions } from "imapflow";

/** A LOGIN written in front of the first command; `done` once its tagged answer came. */
export interface PendingLogin {
  readonly tag: string;
  readonly line: Buffer;
  written: boolean;
  done: boolean;
  /** Fails the command behind LOGIN as a connect timeout when LOGIN goes unanswered. */
  deadline?: ReturnType<typeof setTimeout>;
}

/** Not imapflow's hex counter ("1", "A", ...): no command it sends can carry this tag. */
const TAG = "L0";

/**
 * The LOGIN to pipeline, or null where it must be waited for: anything but LOGIN with a printable
 * ASCII user and password (client.ts chooseLogin; a quoted string then carries them as they are,
 * RFC 3501 §4.3), or a server that disables LOGIN.
 */
export function deferrableLogin(caps: Map<string, unknown>, auth: ImapFlowOptions["auth"]): PendingLogin | null {
  if (!auth || auth.loginMethod !== "LOGIN" || !("pass" in auth) || typeof auth.pass !== "string" || caps.has("LOGINDISABLED")) return null;
  if (!/^[\x20-\x7e]*$/.test(auth.user) || !/^[\x20-\x7e]*$/.test(auth.pass)) return null;
  const line = `${TAG} LOGIN ${quoted(auth.user)} ${quoted(auth.pass)}`; // write() ends the line
  return { tag: TAG, line: Buffer.from(line, "latin1"), written: false, done: false };
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * LOGIN's tagged answer, when `payload` is it: "ok", or the error LOGIN failed with (NO or BAD).
 * Null for any other response.
 */
export function loginAnswer(login: PendingLogin, payload: Buffer): "ok" | Error | null {
  const head = payload.toString("latin1", 0, Math.min(payload.length, 2048));
  if (!head.startsWith(`${login.tag} `)) return null;
  const m = /^\S+ (OK|NO|BAD)\b ?(?:\[([^\]]*)\] ?)?(.*)$/is.exec(head.replace(/\r?\n$/, ""));
  if (m?.[1]?.toUpperCase() === "OK") return "ok";
  const text = (m?.[3] ?? head).trim();
  const code = m?.[2]?.split(" ")[0]?.toUpperCase();
  return Object.assign(new Error(`Command failed: ${text}`), {
    authenticationFailed: true, responseStatus: m?.[1]?.toUpperCase() ?? "BAD", response: text, responseText: text,
    ...(code ? { serverResponseCode: code } : {}),
  });
}
