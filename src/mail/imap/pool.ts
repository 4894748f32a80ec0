// One IMAP connection per token, shared by that token's MCP sessions (docs/design.md §7): opened on first
// use, closed after idleMs without use, reopened once when the server dropped it, capped in number
// (MAILBOX_MCP_IMAP_MAX_CONNECTIONS, by default what the machine can hold: ./pool-size.ts).
// Credentials are loaded only while a connection opens and never kept here.
import type { ImapFlow } from "imapflow";
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log.ts";
import { streamFailure } from "./client.ts";
import { DEFAULT_TIMEOUTS, openImap, type ImapTimeouts, type OpenHints } from "./connect.ts";
import { ServerMemory } from "./server-facts.ts";
import { ViewHints, viewKey } from "./view-hints.ts";
import { isDropped, toMailError } from "./errors.ts";
import { type MailAccount } from "../account.ts";
import { MailError } from "../errors.ts";
import { defaultMaxConnections, machineLimits } from "./pool-size.ts";

export interface PoolOptions extends ImapTimeouts {
  maxConnections: number;
  idleMs: number;
  /** Longest one withClient call may take before its connection is abandoned. */
  opTimeoutMs: number;
}

/** The defaults but the cap, which is the machine's (./pool-size.ts) unless given. */
export const DEFAULT_POOL_OPTIONS: Omit<PoolOptions, "maxConnections"> = {
  ...DEFAULT_TIMEOUTS, idleMs: 5 * 60_000, opTimeoutMs: 60_000,
};

/** What the pool has done since it started: for the bench and the logs. */
export interface PoolStats {
  /** Connections open or opening now, and the cap. */
  open: number;
  max: number;
  /** Connections opened (each a login). */
  opened: number;
  /** Idle connections closed to make room for another token's at the cap. */
  evicted: number;
  /** Connections closed by the sweep after idleMs unused. */
  idleClosed: number;
}

export type AccountLoader = () => Promise<MailAccount>;
export type Opener = (account: MailAccount, t: ImapTimeouts, hints: OpenHints) => Promise<ImapFlow>;

interface Entry {
  client: ImapFlow | null;
  /** The account the client was opened with: for error messages (host, port, password or sign-in) only. */
  where: (Pick<MailAccount, "imap" | "provider"> & { signedIn: boolean }) | null;
  opening: Promise<ImapFlow> | null;
  active: number;
  lastUsed: number;
}

export interface WithClientOptions {
  /** Retry once on a new connection when a reused one turns out dropped. Off for non-idempotent writes. */
  retryOnDrop?: boolean;
  /** The folder (a path) fn reads first with EXAMINE: a connection opened for it EXAMINEs it in its first turn. */
  examine?: string;
  /** fn reads that folder's newest `limit` with these FETCH items: fetched in the first turn too, where a start is remembered (./view-hints.ts). */
  prefetch?: { items: string; limit: number };
}

export class ImapPool {
  private readonly entries = new Map<string, Entry>();
  readonly options: PoolOptions;
  private readonly counts = { opened: 0, evicted: 0, idleClosed: 0 };
  /** What connecting has shown of each mail server (./server-facts.ts). */
  private readonly servers = new ServerMemory();
  /** Where each folder's newest page began when last read (./view-hints.ts). */
  private readonly views = new ViewHints();

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    options: Partial<PoolOptions> = {},
    private readonly open: Opener = openImap,
  ) {
    this.options = { ...DEFAULT_POOL_OPTIONS, maxConnections: options.maxConnections ?? defaultMaxConnections(machineLimits()), ...options };
  }

  /** Connections open or opening right now. */
  get openCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.client || e.opening) n++;
    return n;
  }

  stats(): PoolStats {
    return { open: this.openCount, max: this.options.maxConnections, ...this.counts };
  }

  /**
   * fn on the token's connection if it is open and usable now, else null: nothing is opened, sent or
   * waited for (a look at what the connection already knows, e.g. a spanning read's plan).
   */
  ifOpen<T>(tokenId: string, fn: (c: ImapFlow) => T): T | null {
    const client = this.entries.get(tokenId)?.client;
    return client?.usable ? fn(client) : null;
  }

  /** Runs fn with the token's connection. Every failure comes out as a MailError where it is the server's. */
  async withClient<T>(tokenId: string, load: AccountLoader, fn: (c: ImapFlow) => Promise<T>, opts: WithClientOptions = {}): Promise<T> {
    const entry = this.entryFor(tokenId);
    entry.active++;
    try {
      return await this.attempt(tokenId, entry, load, fn, opts);
    } catch (err) {
      throw entry.where ? toMailError(err, entry.where, this.options.opTimeoutMs) : err;
    } finally {
      entry.active--;
      entry.lastUsed = this.clock();
    }
  }

  private entryFor(tokenId: string): Entry {
    let entry = this.entries.get(tokenId);
    if (!entry) {
      entry = { client: null, where: null, opening: null, active: 0, lastUsed: this.clock() };
      this.entries.set(tokenId, entry);
    }
    return entry;
  }

  private async attempt<T>(tokenId: string, entry: Entry, load: AccountLoader, fn: (c: ImapFlow) => Promise<T>, opts: WithClientOptions): Promise<T> {
    const retry = opts.retryOnDrop ?? true;
    const { client, fresh } = await this.acquire(tokenId, entry, load, opts);
    try {
      return await this.timed(client, fn(client));
    } catch (caught) {
      // The parser's reason (a response over the limits) beats "connection closed"; asking again
      // would only bring the same response.
      const err = streamFailure(client) ?? caught;
      if (!retry || fresh || !isDropped(err)) throw err;
      this.log.info("imap connection dropped; reconnecting once", { token: tokenId.slice(0, 8) });
      const again = await this.acquire(tokenId, entry, load, opts);
      return await this.timed(again.client, fn(again.client));
    }
  }

  private async acquire(tokenId: string, entry: Entry, load: AccountLoader, first: WithClientOptions): Promise<{ client: ImapFlow; fresh: boolean }> {
    if (entry.client?.usable) return { client: entry.client, fresh: false };
    entry.client = null;
    entry.opening ??= this.connect(tokenId, entry, load, first).finally(() => { entry.opening = null; });
    return { client: await entry.opening, fresh: true };
  }

  private async connect(tokenId: string, entry: Entry, load: AccountLoader, first: WithClientOptions): Promise<ImapFlow> {
    this.makeRoom();
    const account = await load();
    entry.where = { imap: account.imap, provider: account.provider, signedIn: account.auth.kind === "oauth2" };
    const client = await this.open(account, this.options, this.hintsFor(account, first));
    this.counts.opened++;
    if (this.entries.get(tokenId) !== entry) {
      client.close(); // revoked while we were connecting
      throw new MailError("auth", "The access token was revoked while connecting: reconnect the mailbox.");
    }
    client.on("error", (err: { code?: string }) => this.log.warn("imap connection error", { token: tokenId.slice(0, 8), code: err?.code }));
    client.on("close", () => { if (entry.client === client) entry.client = null; });
    entry.client = client;
    return client;
  }

  /** What a connection opened for `first` may send in its first turn, and where it reports newest pages. */
  private hintsFor(account: MailAccount, first: WithClientOptions): OpenHints {
    const key = (path: string) => viewKey(account.imap, account.username, path);
    const start = first.examine && first.prefetch ? this.views.get(key(first.examine)) : null;
    return {
      memory: this.servers, examine: first.examine ?? null,
      // Room for the page, for messages expunged inside it and for some new mail since: past that it is fetched as before.
      prefetch: start && first.prefetch ? { items: first.prefetch.items, low: start.low, span: Math.max(100, 5 * first.prefetch.limit) } : null,
      noteNewest: (path, low) => this.views.set(key(path), { low }),
    };
  }

  /** At the cap, close the least recently used idle connection, or refuse clearly. One pass: the pool may hold thousands. */
  private makeRoom(): void {
    if (this.openCount < this.options.maxConnections) return;
    let idle: Entry | null = null;
    for (const e of this.entries.values()) {
      if (e.client && e.active === 0 && !e.opening && (!idle || e.lastUsed < idle.lastUsed)) idle = e;
    }
    if (!idle) {
      throw new MailError("unreachable", `This server already holds its maximum of ${this.options.maxConnections} mail connections, all busy. Try again in a minute.`);
    }
    closeGracefully(idle.client!);
    idle.client = null;
    this.counts.evicted++;
  }

  /** Bounds one call; on expiry the connection is closed, which also fails the stuck command. */
  private async timed<T>(client: ImapFlow, work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(Object.assign(new Error("operation timeout"), { code: "ETIMEOUT" }));
        client.close();
      }, this.options.opTimeoutMs);
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes connections unused for idleMs; forgets entries with nothing open. Call periodically. */
  sweep(): void {
    const now = this.clock();
    for (const [tokenId, e] of this.entries) {
      if (e.active > 0 || e.opening) continue;
      if (e.client && now - e.lastUsed >= this.options.idleMs) {
        closeGracefully(e.client);
        e.client = null;
        this.counts.idleClosed++;
      }
      if (!e.client) this.entries.delete(tokenId);
    }
  }

  /** The token is gone (revoked): drop its connection at once, even mid-command. */
  closeToken(tokenId: string): void {
    const e = this.entries.get(tokenId);
    this.entries.delete(tokenId);
    e?.client?.close();
  }

  closeAll(): void {
    for (const tokenId of [...this.entries.keys()]) this.closeToken(tokenId);
  }
}

/** LOGOUT politely, but never wait more than a second on a server that does not answer. */
function closeGracefully(client: ImapFlow): void {
  const force = setTimeout(() => client.close(), 1000);
  client.logout().catch(() => {}).finally(() => { clearTimeout(force); client.close(); });
}
