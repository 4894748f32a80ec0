// In-process SMTP submission server for tests: AUTH as a Dovecot user, then each message is
// recorded and appended to the INBOX of every local recipient, so tests can read it back over IMAP.
import { SMTPServer } from "smtp-server";
import type { SMTPServerAuthentication, SMTPServerAuthenticationResponse, SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { SMTPConnection } from "smtp-server/lib/smtp-connection.js";
import type { DovecotServer, MailUser } from "./dovecot.ts";
import { freePort } from "./dovecot.ts";
import { refuseInUnitRun } from "./unit-guard.ts";

// smtp-server 3.21 holds every greeting back 100 ms to catch "early talkers" (no option turns it
// off): ~100 ms per message sent in tests. Greet at once; guarded in case the internals change.
const proto = SMTPConnection.prototype as unknown as Record<string, unknown>;
if (typeof proto._setListeners === "function" && typeof proto.connectionReady === "function") {
  proto.init = function (this: { _setListeners(cb: () => void): void; connectionReady(): void }) {
    this._setListeners(() => this.connectionReady());
  };
}

export interface SentMessage {
  /** Envelope MAIL FROM. */
  from: string;
  /** Envelope RCPT TO (includes Bcc recipients). */
  to: string[];
  raw: Buffer;
  /** The AUTH login that sent it. */
  user: string;
}

export interface DataCommand {
  to: string[];
  bytes: number;
  complete: boolean;
}

export interface RcptHold {
  held(): boolean;
  ended(): boolean;
  release(): void;
}

interface Hold {
  address: string;
  gate: Promise<void>;
  held: boolean;
  session?: string;
  ended: boolean;
}

/** One injected failure; `at` picks the SMTP stage (default "mail": the next MAIL FROM fails). */
export interface SmtpFault { code: number; message: string; at?: "mail" | "rcpt" | "data" }

export interface SmtpServer {
  host: "localhost";
  port: number;
  messages: SentMessage[];
  /** Lower-case addresses a login may not send as: MAIL FROM answered 553 (as Postfix and Fastmail do). */
  refuseSenders: Set<string>;
  /** Lower-case addresses answered with 550 at RCPT TO. */
  rejectRecipients: Set<string>;
  /** Consumed by the first stage it matches. */
  failNext?: SmtpFault;
  /**
   * Holds the answer to RCPT TO `address` until released, so a test can act while a client waits just
   * before DATA. `held()` is true while one waits; `ended()` once that SMTP connection has closed.
   */
  holdRcpt(address: string): RcptHold;
  /**
   * Every DATA command that reached the server: its envelope recipients, how many bytes of message
   * followed it, and whether the message ended (its final dot) — accepted or not.
   */
  dataCommands: DataCommand[];
  /**
   * Holds every message from now on after its data has arrived (and been recorded) but before the
   * server answers 250, until the returned function is called: a send caught in flight.
   */
  pause(): () => void;
  /** Forget recorded messages and injected faults (the server is shared by a whole run). */
  reset(): void;
  stop(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** Who an access token belongs to (the fake OAuth provider), for AUTH XOAUTH2. */
export interface TokenOwners { userOf(token: string): string | null }

export async function startSmtp(dovecot: DovecotServer, oauth?: TokenOwners): Promise<SmtpServer> {
  refuseInUnitRun("The SMTP test server");
  const users = Object.values(dovecot.users);
  const local = (addr: string): MailUser | undefined => users.find((u) => u.email === addr.toLowerCase());
  let stopping: Promise<void> | undefined;
  const holds = new Set<Hold>();
  const everHeld: Hold[] = [];

  let paused: Promise<void> = Promise.resolve();
  const state: SmtpServer = {
    pause() {
      let release!: () => void;
      paused = new Promise<void>((r) => { release = r; });
      return () => {
        paused = Promise.resolve();
        release();
      };
    },
    host: "localhost",
    port: 0,
    messages: [],
    rejectRecipients: new Set(),
    refuseSenders: new Set(),
    failNext: undefined,
    holdRcpt(address) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      const hold: Hold = { address: address.toLowerCase(), gate, held: false, ended: false };
      holds.add(hold);
      return { held: () => hold.held, ended: () => hold.ended, release: () => { holds.delete(hold); release(); } };
    },
    dataCommands: [],
    reset() {
      state.messages.length = 0;
      state.rejectRecipients.clear();
      state.refuseSenders.clear();
      state.failNext = undefined;
      state.dataCommands.length = 0;
    },
    stop: () => (stopping ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };

  // Returns the injected fault for this stage, once.
  const takeFault = (stage: "mail" | "rcpt" | "data"): Error | undefined => {
    const f = state.failNext;
    if (!f || (f.at ?? "mail") !== stage) return undefined;
    state.failNext = undefined;
    return smtpError(f.code, f.message);
  };

  const onAuth = (auth: SMTPServerAuthentication, _s: SMTPServerSession, cb: (e: Error | null | undefined, r?: SMTPServerAuthenticationResponse) => void) => {
    const u = local(auth.username ?? "");
    if (auth.method === "XOAUTH2") {
      const owner = auth.accessToken ? oauth?.userOf(auth.accessToken) : null;
      if (owner && owner === (auth.username ?? "").toLowerCase()) return cb(null, { user: owner });
      return cb(smtpError(535, "5.7.8 Authentication credentials invalid"));
    }
    if (u && auth.password === u.pass) return cb(null, { user: u.email });
    cb(smtpError(535, "5.7.8 Authentication credentials invalid"));
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, cb: (e?: Error | null) => void) => {
    const command: DataCommand = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), bytes: 0, complete: false };
    state.dataCommands.push(command);
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => { chunks.push(c); command.bytes += c.length; });
    stream.on("error", () => {}); // the client hung up before the final dot: nothing to deliver
    stream.on("end", async () => {
      command.complete = true;
      const fault = takeFault("data");
      if (fault) return cb(fault);
      const raw = Buffer.concat(chunks);
      const env = session.envelope;
      const to = env.rcptTo.map((r) => r.address);
      state.messages.push({ from: env.mailFrom ? env.mailFrom.address : "", to, raw, user: String(session.user ?? "") });
      await paused;
      try {
        // Deliver before answering 250, so a test can read the INBOX as soon as sendMail resolves.
        for (const u of new Set(to.map(local).filter((u): u is MailUser => !!u))) await dovecot.deliver(u.email, raw);
        cb();
      } catch (err) {
        cb(smtpError(451, `4.3.0 local delivery failed: ${(err as Error).message}`));
      }
    });
  };

  const server = new SMTPServer({
    logger: false,
    authMethods: ["PLAIN", "LOGIN", "XOAUTH2"],
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true, // a DNS lookup per connection only slows tests down
    closeTimeout: 1000,
    onAuth,
    onMailFrom: (addr, _s, cb) => cb(state.refuseSenders.has(addr.address.toLowerCase())
      ? smtpError(553, "5.7.1 Sender address rejected: not owned by user") : takeFault("mail")),
    onRcptTo: async (addr, session, cb) => {
      const hold = [...holds].find((h) => h.address === addr.address.toLowerCase());
      if (hold) {
        hold.session = session.id;
        everHeld.push(hold);
        hold.held = true;
        await hold.gate;
        hold.held = false;
      }
      if (state.rejectRecipients.has(addr.address.toLowerCase())) return cb(smtpError(550, `5.1.1 <${addr.address}>: Recipient address rejected`));
      cb(takeFault("rcpt"));
    },
    onData,
    onClose: (session) => {
      for (const h of everHeld) if (h.session === session.id) h.ended = true;
      everHeld.splice(0, everHeld.length, ...everHeld.filter((h) => !h.ended));
    },
  });

  // smtp-server re-emits socket errors (e.g. a client hanging up) on itself; unheard they would crash the run.
  server.on("error", () => {});
  state.port = await listen(server);
  return state;
}

// Loopback only; retried because the probed port can be taken before we bind it.
async function listen(server: SMTPServer): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await new Promise<void>((resolve, reject) => {
        server.server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          server.server.off("error", reject);
          resolve();
        });
      });
      return port;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}
