// What this process has learnt of each mail server from connecting to it, which decides how far a
// pooled connection's start may run ahead of the server's answers (./early-session.ts). Kept per
// pool (one per process), never in a module global, and bounded: a provider hosting many domains
// is still one entry per host and port.
import { Remembered } from "./remembered.ts";

export interface ServerFacts {
  /** The last greeting's capability list had LOGINDISABLED (RFC 3501 §6.2.3), or none was seen. */
  loginDisabled: boolean;
  /** A pipelined EXAMINE went unanswered after LOGIN's OK: this server loses what follows LOGIN. */
  examineLost: boolean;
  /** The last pre-login capability list offered AUTH=XOAUTH2 (or XOAUTH), AUTH=OAUTHBEARER. */
  xoauth2: boolean;
  oauthbearer: boolean;
  /** It speaks Gmail's dialect (X-GM-EXT-1): its summaries carry labels. */
  gmail: boolean;
}

const MAX_SERVERS = 4096;

export class ServerMemory {
  readonly #facts = new Remembered<ServerFacts>(MAX_SERVERS);

  get(key: string): ServerFacts | null {
    return this.#facts.get(key);
  }

  note(key: string, facts: Partial<ServerFacts>): void {
    const before = this.#facts.get(key) ?? { loginDisabled: true, examineLost: false, xoauth2: false, oauthbearer: false, gmail: false };
    this.#facts.set(key, { ...before, ...facts });
  }
}

/** One server: where the connection goes and how (a plaintext and a TLS port are different servers). */
export const serverKey = (imap: { host: string; port: number; security: string }): string =>
  `${imap.security}:${imap.host.toLowerCase()}:${imap.port}`;
