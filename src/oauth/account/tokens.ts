// The owner's page's form tokens (docs/owner.md §7). Signed, not stored:
// - the sign-in form's token: a time and an HMAC of it under the master key, good for 10 minutes
//   (a form not made by this server is refused; there is no session yet to bind it to);
// - a session's CSRF token: an HMAC of the session's stored id hash, so another session's token
//   never matches and a form of this session needs nothing kept beside the session row.
import { createHmac, timingSafeEqual } from "node:crypto";

const SIGN_IN_FORM_TTL_MS = 10 * 60_000;

const mac = (key: Uint8Array, purpose: string, value: string): string =>
  createHmac("sha256", key).update(`mailbox-mcp account v1\0${purpose}\0${value}`, "utf8").digest("base64url");

function same(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function signInFormToken(key: Uint8Array, now: number): string {
  return `${now}.${mac(key, "sign-in", String(now))}`;
}

export function signInFormTokenValid(key: Uint8Array, token: string | undefined, now: number): boolean {
  const [at, sig] = (token ?? "").split(".");
  const t = Number(at);
  if (!at || !sig || !Number.isSafeInteger(t) || t > now || now - t > SIGN_IN_FORM_TTL_MS) return false;
  return same(sig, mac(key, "sign-in", at));
}

export function sessionCsrf(key: Uint8Array, sessionIdHash: string): string {
  return mac(key, "csrf", sessionIdHash);
}

export function sessionCsrfValid(key: Uint8Array, sessionIdHash: string, token: string | undefined): boolean {
  return typeof token === "string" && same(token, sessionCsrf(key, sessionIdHash));
}
