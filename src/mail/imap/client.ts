// Our ImapFlow: imapflow's client with (1) a lean session start, because every command after LOGIN
// is a round trip the user waits for on a first call (20-100 ms each to a real provider),
// (2) counters that let withMailbox (./mailbox.ts) prove a folder view is current, and (3) a
// bound on what the responses to one command may add up to (./response-limits.ts), and (4) no
// BODYSTRUCTURE that imapflow would choke on reaches its parser (./structure-guard.ts).
import type { ImapFlow, ImapFlowOptions } from "imapflow";
import { flagChangeOf, noteFlagChange, type Shown } from "./flag-updates.ts";
import type { ViewTracking } from "./view-tracking.ts";
import { MAX_COMMAND_BYTES } from "./response-limits.ts";
import { guardStructure, type ResponseItem } from "./structure-guard.ts";
import { chooseLogin, chooseOAuthMechanism } from "./login-choice.ts";
import { earlyResponse, finishEarly, sendEarly, type EarlyClient, type EarlyStart } from "./early-session.ts";
import { factsOf, type EarlyPlan } from "./early-plan.ts";
import { capturePrefetch, type Prefetched } from "./early-prefetch.ts";
import type { ServerFacts } from "./server-facts.ts";
import { expandSet } from "./uid-set.ts";

export type { ViewTracking };

export interface ClientOptions {
  /**
   * Run NAMESPACE after LOGIN, as imapflow does: some servers (Exchange) accept LOGIN and only
   * fail the next command. The setup form's check wants that certainty; pooled connections skip
   * it and report such a failure on their first command instead.
   */
  probeAfterLogin: boolean;
  /** With an access token: the SASL mechanism to use when the server offers both (imapflow would take OAUTHBEARER). */
  sasl?: "xoauth2" | "oauthbearer";
  /** LOGIN (and the first folder's EXAMINE) to write before the greeting (./early-session.ts). */
  early?: EarlyPlan | null;
  /** Told what the greeting showed of the server (./server-facts.ts). */
  learn?: (facts: Partial<ServerFacts>) => void;
  noteNewest?: ViewTracking["noteNewest"];
}

type Internals = {
  run(command: string, ...args: unknown[]): Promise<unknown>;
  upgradeToSTARTTLS(): Promise<unknown>;
  authenticate(): Promise<unknown>;
  failProtocol(err: Error): void;
  /** The command whose responses are arriving (imapflow sends one at a time); false between commands. */
  currentRequest: { tag: string } | false;
  usable: boolean;
};


/** Responses handled between two turns of the event loop (~80 µs of parsing each). */
const YIELD_EVERY = 50;

let ctor: Promise<new (o: ImapFlowOptions, c: ClientOptions) => ImapFlow & ViewTracking> | undefined;

// Loaded on first use: imapflow adds ~13 MB RSS that an idle server does not need (docs/design.md §7).
async function load() {
  const { ImapFlow } = await import("imapflow");
  class TrackedImapFlow extends ImapFlow implements ViewTracking {
    selects = 0;
    changes = 0;
    flagChanges = 0;
    shownFlagChanges = 0;
    shown?: Shown;
    highestModseq = 0n;
    earlier?: number[];
    preselected?: string;
    prefetched?: Prefetched | null;
    noteNewest?: ViewTracking["noteNewest"];
    readonly #client: ClientOptions;
    #early?: EarlyStart;

    streamError?: Error & { code?: string };
    /**
     * Bytes received so far in answer to the command in flight, known by its tag (unique on the
     * connection). Not by the request object: kept here until the next command, that held its
     * answer handlers and so everything they collected (a FETCH's whole answer list, a message's
     * source) for as long as the connection sat idle.
     */
    #command: { tag: string | null; bytes: number } = { tag: null, bytes: 0 };
    #responses = 0;

    constructor(options: ImapFlowOptions, client: ClientOptions) {
      super(options);
      this.#client = client;
      this.noteNewest = client.noteNewest;
      this.on("error", (err: Error & { code?: string }) => { this.streamError ??= err; });
      (this as unknown as { sectionHandlers: Record<string, (s: Array<{ value?: unknown }>) => void> }).sectionHandlers.HIGHESTMODSEQ = (section) => {
        const value = section[0]?.value;
        if (typeof value === "string" && /^\d{1,20}$/.test(value) && BigInt(value) > this.highestModseq) this.highestModseq = BigInt(value);
      };
    }

    // imapflow's own start sends CAPABILITY, ID (twice on some servers), NAMESPACE, COMPRESS and
    // ENABLE: 4-5 round trips no tool needs. CAPABILITY is free when the greeting carries it
    // (RFC 3501 §7.1 response code); LOGIN's OK refreshes it the same way. Namespace prefixes only
    // matter for paths a caller types without one, and list_mailboxes returns full paths.
    async startSession(): Promise<void> {
      const self = this as unknown as Internals;
      const learn = this.#client.learn ?? (() => {});
      const early = this.#early;
      // Once the start is complete nothing more is its, and what it fetched is not kept past it.
      const done = early && await finishEarly(this as unknown as EarlyClient, early, learn).finally(() => { early.release(); this.#early = undefined; });
      if (early && done) {
        if (early.opened && this.mailbox) [this.preselected, this.prefetched] = [this.mailbox.path, early.result];
        self.usable = true;
        return;
      }
      await self.run("CAPABILITY");
      if (this.capabilities.size) learn(factsOf(this.capabilities));
      await self.upgradeToSTARTTLS();
      chooseLogin(this.capabilities, (this as unknown as { options: ImapFlowOptions }).options.auth);
      chooseOAuthMechanism(this.capabilities, this.#client.sasl);
      await self.authenticate();
      await self.run("CAPABILITY"); // sends nothing when LOGIN's OK carried them (Dovecot, Gmail)
      if (this.#client.probeAfterLogin) await self.run("NAMESPACE");
      self.usable = true;
    }

    // imapflow calls this once TCP or TLS is up, before the greeting: an early start's first turn goes out.
    setEventHandlers(): void {
      (ImapFlow.prototype as any).setEventHandlers.call(this);
      if (this.#client.early && !this.#early) this.#early = sendEarly(this as unknown as EarlyClient, this.#client.early);
    }

    // imapflow LISTs and LSUBs a folder it has not listed before its first SELECT, only to copy
    // the delimiter, special use and subscription into `client.mailbox`, which no tool reads: two
    // round trips per folder per connection. A bare entry skips them; list() replaces it with the
    // full one. A missing folder still fails the SELECT, and imapflow then LISTs to say so.
    override async mailboxOpen(...args: Parameters<ImapFlow["mailboxOpen"]>) {
      this.selects++;
      this.highestModseq = 0n; // the SELECT's own answer says it anew
      const [path] = args;
      const key = typeof path === "string" && path.toUpperCase() === "INBOX" ? "INBOX" : path;
      const folders = (this as unknown as { folders: Map<unknown, unknown> }).folders;
      if (typeof key === "string" && !folders.has(key)) folders.set(key, { path: key });
      return super.mailboxOpen(...args);
    }

    // Every response passes here before imapflow parses it. Past MAX_COMMAND_BYTES for one command
    // the connection is failed as a protocol error: the command in flight learns "connection
    // closed", the pool reads the reason from streamError (./pool.ts), and nothing more is read.
    // Every YIELD_EVERY responses the event loop gets a turn: imapflow's parser and reader hand
    // responses on through promises and nextTick, so a long answer (50,000 LIST lines) otherwise
    // runs to its end before any timer or socket of another user is served (a 4 s stall, measured).
    async handleResponse(data: ResponseItem): Promise<boolean> {
      if (++this.#responses % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const early = this.#early && earlyResponse(this as unknown as EarlyClient, this.#early, this.#client.early!, data);
      if (early === "answered") return true;
      if (early === "too large") return this.#tooLarge();
      const self = this as unknown as Internals;
      const request = self.currentRequest;
      if (request) {
        if (request.tag !== this.#command.tag) this.#command = { tag: request.tag, bytes: 0 };
        this.#command.bytes += data.payload.length + (data.literals ?? []).reduce((n, l) => n + l.length, 0);
        if (this.#command.bytes > MAX_COMMAND_BYTES) return this.#tooLarge();
      }
      guardStructure(data);
      return (ImapFlow.prototype as any).handleResponse.call(this, data);
    }

    #tooLarge(): false {
      const err = Object.assign(new Error(`more than ${MAX_COMMAND_BYTES} bytes in answer to one command`), { code: "CommandTooLarge" });
      this.streamError ??= err;
      (this as unknown as Internals).failProtocol(err);
      return false;
    }

    async untaggedExists(...args: unknown[]) {
      this.changes++;
      return (ImapFlow.prototype as any).untaggedExists.apply(this, args);
    }

    async untaggedExpunge(...args: unknown[]) {
      this.changes++;
      return (ImapFlow.prototype as any).untaggedExpunge.apply(this, args);
    }

    // With QRESYNC enabled the server reports expunges as VANISHED (RFC 7162 §3.2.10): without
    // (EARLIER) it replaces EXPUNGE and lowers the message count, which imapflow 2.1.2 leaves as it
    // was; (EARLIER) answers our own CHANGEDSINCE query and changes nothing.
    async untaggedVanished(...args: unknown[]) {
      const [untagged] = args as [{ attributes?: Array<{ value?: unknown } | Array<{ value?: unknown }>> }];
      const attrs = untagged?.attributes ?? [];
      const earlier = Array.isArray(attrs[0]) && attrs[0].some((a) => String(a.value).toUpperCase() === "EARLIER");
      const set = (attrs.at(-1) as { value?: unknown } | undefined)?.value;
      const uids = typeof set === "string" ? expandSet(set) : [];
      if (earlier) return void this.earlier?.push(...uids);
      this.changes++;
      if (this.mailbox && uids.length) this.mailbox.exists = Math.max(0, this.mailbox.exists - uids.length);
      return (ImapFlow.prototype as any).untaggedVanished.apply(this, args);
    }

    async untaggedFetch(...args: unknown[]) {
      const p = this.#early?.prefetch;
      if (p?.written && capturePrefetch(p, args[0])) return;
      const flagged = flagChangeOf(args[0] as Parameters<typeof flagChangeOf>[0]);
      if (flagged) noteFlagChange(this, flagged.seq, flagged.uid);
      else this.changes++;
      return (ImapFlow.prototype as any).untaggedFetch.apply(this, args);
    }
  }
  return TrackedImapFlow;
}

export async function createImapClient(options: ImapFlowOptions, client: ClientOptions): Promise<ImapFlow & ViewTracking> {
  const C = await (ctor ??= load());
  return new C(options, client);
}

/** The parser's own reason a client failed (a response over the limits), else undefined. */
export function streamFailure(client: ImapFlow): (Error & { code?: string }) | undefined {
  const e = (client as Partial<ViewTracking>).streamError;
  return e && /TooLarge$/.test(e.code ?? "") ? e : undefined;
}

/** The counters of a client we created; null for a plain ImapFlow (tests, scripts). */
export function tracking(client: ImapFlow): ViewTracking | null {
  const t = client as Partial<ViewTracking>;
  return typeof t.selects === "number" && typeof t.changes === "number" && typeof t.flagChanges === "number" ? (t as ViewTracking) : null;
}
