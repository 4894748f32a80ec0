// The cookie that ties a provider's callback to the browser that left the setup form for it
// (RFC 9700 §4.7.1: the state must be bound to the user agent). Only its SHA-256 is stored
// (src/store/upstream-flows.ts). Scoped to the callback's path, HttpOnly; SameSite=Lax, which a
// top-level redirect from the provider still carries; Secure when the server is reached over HTTPS.
import { CALLBACK_PATH } from "../../oauth/provider-sign-in/start.ts";

export const SIGN_IN_COOKIE = "mailbox_mcp_sign_in";
/** As long as a pending authorization (10 minutes). */
const MAX_AGE_S = 600;

const attributes = (baseUrl: string) => `Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax${baseUrl.startsWith("https:") ? "; Secure" : ""}`;

export function setSignInCookie(baseUrl: string, binding: string): string {
  return `${SIGN_IN_COOKIE}=${binding}; Max-Age=${MAX_AGE_S}; ${attributes(baseUrl)}`;
}

export function clearSignInCookie(baseUrl: string): string {
  return `${SIGN_IN_COOKIE}=; Max-Age=0; ${attributes(baseUrl)}`;
}

/** The binding the browser sent back, or null. */
export function signInCookie(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SIGN_IN_COOKIE) return value.join("=") || null;
  }
  return null;
}
