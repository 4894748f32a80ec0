// The rows of the credential store as its callers see them (./grants.ts): pending authorizations,
// codes, tokens, and what a grant records about its owner and client.
import { READ_WRITE_SCOPE } from "../scopes.ts";
import type { SendPolicy } from "../send-policy.ts";
import type { SentMark } from "../sent-mark.ts";

export interface PendingRequest {
  idHash: string;
  csrfHash: string;
  /** The client that asked; null on rows from before registration existed (= the configured client). */
  clientId: string | null;
  redirectUri: string;
  codeChallenge: string;
  /** Null when the client sent none (docs/design.md §3); stored as "" (RFC 6749 §3.1: empty = omitted). */
  state: string | null;
  resource: string | null;
  /** The scope asked for at authorize (RFC 6749 §3.3), null when none was: the most the form may offer. */
  scope: string | null;
  expiresAt: number;
}

export interface CodeRecord {
  codeHash: string;
  grantId: string;
  /** The client the code was issued to (RFC 6749 §4.1.3); null = the configured client. */
  clientId: string | null;
  codeChallenge: string;
  redirectUri: string;
  resource: string | null;
  /** The scope of the grant the code belongs to: what its token gets. */
  scope: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface TokenRecord {
  /** SHA-256 of the token: a stable id for sessions and pooled connections, safe to keep in memory. */
  id: string;
  grantId: string;
  scope: string;
  resource: string | null;
  expiresAt: number;
}

export type NewPending = Omit<PendingRequest, "idHash" | "csrfHash" | "expiresAt" | "clientId" | "scope"> & { clientId?: string | null; scope?: string | null };

/** The contract's scope (docs/contract.md §2.3): what a grant gets unless the person chose read-only. */
export const DEFAULT_GRANT_SCOPE = READ_WRITE_SCOPE;

/** What the owner's tools show about a grant (docs/owner.md); the label is sealed, never stored in clear. */
export interface GrantInfo {
  clientId?: string;
  /** "email:read email:write" (default) or "email:read" for a read-only grant. */
  scope?: string;
  label?: GrantLabel;
  /** What the grant may send and when the person is asked (docs/design.md §3); default DEFAULT_SEND_POLICY. */
  sendPolicy?: SendPolicy;
  /** The provider preset the mailbox was connected with (list_accounts names it). */
  provider?: string;
  /** Where the mailbox's \Sent folder stood at the login that made the grant (./sent-marks.ts). */
  sentMark?: SentMark;
}

export interface GrantLabel {
  /** The mailbox address the person entered. */
  email: string;
  /** The IMAP host it lives on. */
  host: string;
  /** For a sign-in at an OAuth provider: the provider's name ("Microsoft"), what the owner is told to reconnect at. */
  signIn?: string;
}

/** Whose grant a new code starts: one mailbox login through one client, which keeps its newest `keep` grants. */
export interface GrantOwner {
  clientId: string;
  /** The mailbox login, e.g. username and IMAP host; compared as given (normalise before). */
  login: string;
  keep: number;
}
