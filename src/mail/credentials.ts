// The mailbox credentials behind each access token: unsealed from the store on first use (only the
// token itself can unwrap them, docs/oauth.md §3), kept in memory while the token is in use, as
// long as its IMAP and SMTP connections keep them anyway, renewed before an OAuth access token
// expires, and forgotten at once when the token is revoked. One object per service (composition
// root); nothing here is global.
import type { Clock } from "../clock.ts";
import type { MailAccount } from "./account.ts";
import { connectionKey, connectionKeys } from "./connection-key.ts";
import { MailError } from "./errors.ts";

/** The sealed account of one mailbox (its position in the connection) behind a token, or null when the token or mailbox is gone. */
export type Unseal = (token: string, position: number) => Promise<MailAccount | null>;

/**
 * Renews an account whose OAuth access token is about to expire (docs/design.md §5): returns the
 * account with a fresh token. The composition root (src/composition.ts) wires the sign-in renewal;
 * without it (DEFAULT_CREDENTIAL_OPTIONS) a due account is refused.
 */
export type Renew = (token: string, account: MailAccount, position: number) => Promise<MailAccount>;

/** When an account's login must be renewed before use; null: never (a password). */
export type RenewAt = (account: MailAccount) => number | null;

/** What a tool call holds: the account, current whenever it is asked for. */
export interface CredentialSource {
  account(): Promise<MailAccount>;
}

export interface CredentialOptions {
  /** Unused entries are dropped after this long (the pools' idle time: 5 minutes). */
  idleMs: number;
  renew: Renew;
  renewAt: RenewAt;
}

interface Entry {
  /** The first unseal; `current` is set when it succeeds. */
  loading: Promise<MailAccount>;
  current: MailAccount | null;
  /** A renewal under way: every caller that finds the account due waits for this one. */
  renewing: Promise<MailAccount> | null;
  lastUsed: number;
}

const revoked = () => new MailError("auth", "The access token has been revoked or has expired: reconnect the mailbox.");

export const DEFAULT_CREDENTIAL_OPTIONS: CredentialOptions = {
  idleMs: 5 * 60_000,
  renew: async () => { throw new MailError("auth", "The sign-in for this mailbox expired: reconnect the mailbox."); },
  renewAt: () => null,
};

export class Credentials {
  private readonly entries = new Map<string, Entry>();
  private readonly options: CredentialOptions;

  constructor(private readonly unseal: Unseal, private readonly clock: Clock, options: Partial<CredentialOptions> = {}) {
    this.options = { ...DEFAULT_CREDENTIAL_OPTIONS, ...options };
  }

  /** The source for one mailbox of a token; its connection key (./connection-key.ts) keys the cache, `token` unwraps the sealed account. */
  for(tokenId: string, token: string, position = 0): CredentialSource {
    const key = connectionKey(tokenId, position);
    return { account: () => this.account(key, token, position) };
  }

  /** Accounts held in memory now, for tests. */
  get size(): number {
    return this.entries.size;
  }

  private async account(tokenId: string, token: string, position: number): Promise<MailAccount> {
    const entry = this.entryFor(tokenId, token, position);
    entry.lastUsed = this.clock();
    await entry.loading;
    const account = entry.current!;
    const due = this.options.renewAt(account);
    if (due === null || this.clock() < due) return account;
    entry.renewing ??= this.options.renew(token, account, position)
      .then((fresh) => (entry.current = fresh))
      .finally(() => { entry.renewing = null; });
    return entry.renewing;
  }

  /** Single flight: calls arriving together share one unseal; a failed one is not kept. */
  private entryFor(tokenId: string, token: string, position: number): Entry {
    const found = this.entries.get(tokenId);
    if (found) return found;
    const entry: Entry = { loading: this.load(token, position), current: null, renewing: null, lastUsed: this.clock() };
    entry.loading.then((a) => { entry.current = a; }, () => { if (this.entries.get(tokenId) === entry) this.entries.delete(tokenId); });
    this.entries.set(tokenId, entry);
    return entry;
  }

  private async load(token: string, position: number): Promise<MailAccount> {
    const account = await this.unseal(token, position);
    if (!account) throw revoked();
    return account;
  }

  /** The token was revoked: the accounts of all its mailboxes leave memory now. */
  forget(tokenId: string): void {
    for (const key of connectionKeys(tokenId)) this.forgetKey(key);
  }

  /** One mailbox's account (its connection key, ./connection-key.ts) leaves memory now. */
  forgetKey(key: string): void {
    this.entries.delete(key);
  }

  /** Drops accounts unused for idleMs. Call periodically. */
  sweep(): void {
    const now = this.clock();
    for (const [tokenId, e] of this.entries) if (now - e.lastUsed >= this.options.idleMs) this.entries.delete(tokenId);
  }

  forgetAll(): void {
    this.entries.clear();
  }
}
