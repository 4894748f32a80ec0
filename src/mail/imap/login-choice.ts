// Which login a connection uses: LOGIN where a password allows it (one round trip), and the SASL
// mechanism a provider documents for an access token.
import type { ImapFlowOptions } from "imapflow";

/**
 * LOGIN (RFC 3501 §6.2.3) is one round trip; imapflow prefers AUTHENTICATE PLAIN or LOGIN, which without
 * SASL-IR (RFC 4959, which imapflow does not use) take two or three. imapflow's choice stays for passwords LOGIN cannot
 * carry as a plain quoted string, and wherever the server disables LOGIN.
 */
export function chooseLogin(caps: Map<string, unknown>, auth: ImapFlowOptions["auth"]): void {
  if (!auth || auth.loginMethod || !("pass" in auth) || typeof auth.pass !== "string") return;
  if (caps.has("LOGINDISABLED")) return;
  if (/^[\x20-\x7e]*$/.test(auth.pass) && /^[\x20-\x7e]*$/.test(auth.user)) auth.loginMethod = "LOGIN";
}

/**
 * imapflow picks OAUTHBEARER whenever the server offers it; a provider configured for XOAUTH2 (the
 * one Microsoft and Google document) gets XOAUTH2. Only the pre-login capability list is touched:
 * the CAPABILITY after login replaces it.
 */
export function chooseOAuthMechanism(caps: Map<string, unknown>, sasl: "xoauth2" | "oauthbearer" | undefined): void {
  if (!sasl || !caps.has("AUTH=OAUTHBEARER") || !(caps.has("AUTH=XOAUTH2") || caps.has("AUTH=XOAUTH"))) return;
  if (sasl === "xoauth2") caps.delete("AUTH=OAUTHBEARER");
  else { caps.delete("AUTH=XOAUTH2"); caps.delete("AUTH=XOAUTH"); }
}
