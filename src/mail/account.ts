// A mailbox account: where its IMAP and SMTP servers are and how to log in. Credentials travel only
// in memory; the store keeps them sealed (src/store/crypto.ts).
export type Security = "tls" | "starttls" | "none";

export interface ServerEndpoint {
  host: string;
  port: number;
  security: Security;
}

/**
 * How the account logs in to IMAP and SMTP: an (app) password, or an OAuth 2.0 access token (SASL
 * OAUTHBEARER, RFC 7628, or XOAUTH2: `sasl` when the server offers both, else what it offers).
 */
export type MailAuth =
  | { kind: "password"; password: string }
  | { kind: "oauth2"; accessToken: string; sasl?: "xoauth2" | "oauthbearer"; renewal?: TokenRenewal };

/**
 * What renews an access token from a provider's sign-in (docs/design.md §5): the refresh token and
 * when the access token expires and is renewed (a share of its lifetime before, docs/oauth-providers.md).
 * Sealed with the rest of the account; never leaves the server.
 */
export interface TokenRenewal {
  refreshToken: string;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
  /** Epoch ms from which a call renews it first; before it, calls use it as it is. */
  renewAt: number;
}

/** What the setup form collects and the store seals: enough to open IMAP and SMTP. */
export interface MailAccount {
  provider: string;
  email: string;
  /** Login name; usually the email address. */
  username: string;
  auth: MailAuth;
  imap: ServerEndpoint;
  smtp: ServerEndpoint;
  /** True when the provider files sent mail in Sent itself (Gmail), so we must not APPEND a copy. */
  providerSavesSent: boolean;
  /**
   * Set for custom hosts connected while private hosts were not allowed: every connection then
   * re-resolves the host, refuses private addresses and connects to the checked one (net/host-policy.ts).
   */
  requirePublicHosts?: boolean;
}

export const passwordAuth = (password: string): MailAuth => ({ kind: "password", password });

export function encodeAccount(account: MailAccount): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(account));
}

/** Grants sealed before the auth union kept the password at the top level. */
type StoredAccount = Omit<MailAccount, "auth"> & { auth?: MailAuth; password?: string };

export function decodeAccount(bytes: Uint8Array): MailAccount {
  const { password, auth, ...rest } = JSON.parse(new TextDecoder().decode(bytes)) as StoredAccount;
  return { ...rest, auth: auth ?? passwordAuth(password ?? "") };
}
