// The owner's page session cookie (docs/owner.md §7): `__Host-mbx_account` when the server is
// reached over HTTPS (the prefix makes browsers insist on Secure, Path=/ and no Domain:
// RFC 6265bis §4.1.3.2), else `mbx_account`. HttpOnly; SameSite=Strict, so no other site's page
// sends it along; it lives at most as long as a session may (12 hours).
import { ACCOUNT_MAX_MS } from "../../store/account-sessions.ts";

const secure = (baseUrl: string) => baseUrl.startsWith("https:");

export const accountCookieName = (baseUrl: string): string => (secure(baseUrl) ? "__Host-mbx_account" : "mbx_account");

const attributes = (baseUrl: string) => `Path=/; HttpOnly; SameSite=Strict${secure(baseUrl) ? "; Secure" : ""}`;

export function setAccountCookie(baseUrl: string, id: string): string {
  return `${accountCookieName(baseUrl)}=${id}; Max-Age=${ACCOUNT_MAX_MS / 1000}; ${attributes(baseUrl)}`;
}

export function clearAccountCookie(baseUrl: string): string {
  return `${accountCookieName(baseUrl)}=; Max-Age=0; ${attributes(baseUrl)}`;
}

/** The session id the browser sent, or null. */
export function accountCookie(request: Request, baseUrl: string): string | null {
  const name = accountCookieName(baseUrl);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=") || null;
  }
  return null;
}
