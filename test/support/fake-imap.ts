// A scripted IMAP server speaking just enough IMAP4rev1 for imapflow (greeting, CAPABILITY, LOGIN,
// LIST, SELECT/EXAMINE, SEARCH, FETCH, NOOP, LOGOUT) over a 3-message INBOX, that can misbehave on
// cue: refuse the login, never answer, or drop the connection in the middle of a FETCH; or report
// another client's flag change after answering from its view before it (RFC 3501 allows both orders).
import { createServer, type Server, type Socket } from "node:net";
import { courierHandlers, type CourierState } from "./fake-courier.ts";
import { GMAIL_CAPS, gmailHandlers, type GmailState } from "./fake-gmail.ts";

export interface Script {
  /** Send the greeting (false: accept the TCP connection and stay silent). */
  greet?: boolean;
  /** Greet with PREAUTH (RFC 3501 §7.1.4): already authenticated; a LOGIN is then refused with BAD. */
  preauth?: boolean;
  /** The greeting's capability list instead of the dialect's (AUTHENTICATE is answered BAD: unknown here). */
  greetingCaps?: string;
  login?: "ok" | "refuse" | "hang";
  /**
   * Answer LOGIN after a moment and lose every line that came meanwhile, as a login process that
   * hands the connection to another process without its read buffer would: commands pipelined
   * behind LOGIN go unanswered.
   */
  loseAfterLogin?: boolean;
  /**
   * "ok-then-drop": answers the first FETCH, drops the connection on the second. "huge-subject":
   * answers with a subject literal of `hugeBytes` (default 50 MB), really sent, as a hostile server would.
   */
  fetch?: "ok" | "drop" | "hang" | "ok-then-drop" | "huge-subject";
  hugeBytes?: number;
  /** "huge-subject" answers any FETCH with this many messages (uids 1…n), each with such a subject. Default 1 (uid 3). */
  hugeCount?: number;
  /**
   * Every message gets a second part, an image/png attachment whose BODYSTRUCTURE size says
   * `declared` octets while its content (base64) is `content`: a server that understates a size.
   * `BODY.PEEK[2]<0.N>` is answered with the first N octets, as RFC 3501 §6.4.5 says.
   */
  part?: { declared: number; content: string };
  /** Octets of part content sent so far. */
  partBytesSent?: number;
  /**
   * LIST answers INBOX and this many more folders ("Folder/00001"…), all subscribed (LSUB) and each
   * with a STATUS: a server with tens of thousands of folders, as a hostile one may claim.
   */
  folders?: number;
  /** The PERMANENTFLAGS list SELECT reports, e.g. "\\Seen \\Flagged $Work" (no \\*: no new keywords); none when unset. */
  permanentFlags?: string;
  /** Speak Gmail's dialect (./fake-gmail.ts): X-GM-LABELS, [Gmail]/ folders, MOVE with COPYUID. */
  gmail?: GmailState;
  /** Behave as Courier does (./fake-courier.ts): no UIDNEXT on SELECT, a folder other clients change. */
  courier?: CourierState;
  /**
   * Another client's flag change to message `seq`, reported once as `* seq FETCH (FLAGS (…))` at the
   * end of the next FETCH or NOOP (`after`); a FETCH answers with the old flags until it was reported,
   * as a server answering from its view before the change would.
   */
  flagChange?: { after: "FETCH" | "NOOP"; seq: number; flags: string; sent?: boolean };
}

export interface FakeImap {
  host: "127.0.0.1";
  port: number;
  /** Connections accepted so far. */
  connections: number;
  /**
   * Commands received so far, over all connections, by name ("UID FETCH" counts as FETCH): how a
   * test knows a command has reached the server (and, scripted to hang, is now stuck there).
   */
  received: Record<string, number>;
  /** Which script connection n (1-based) follows; change between tests. */
  script: (n: number) => Script;
  /** Drops every open connection, as a server restart would; keeps listening. */
  dropAll(): void;
  stop(): Promise<void>;
}

const PLAIN_CAPS = "IMAP4rev1";
const MESSAGES = [1, 2, 3];

function fetchLine(n: number, script: Script = {}): string {
  const addr = `(("Carol Example" NIL "carol" "example.net"))`;
  const env = `("Tue, 05 Mar 2024 1${n}:00:00 +0000" "Fake message ${n}" ${addr} ${addr} ${addr} ((NIL NIL "alice" "example.test")) NIL NIL NIL "<fake-${n}@example.test>")`;
  const text = `("text" "plain" ("charset" "utf-8") NIL NIL "7bit" 12 1 NIL NIL NIL NIL)`;
  const image = `("image" "png" ("name" "x.png") NIL NIL "base64" ${script.part?.declared} NIL ("attachment" ("filename" "x.png")) NIL NIL)`;
  const body = script.part ? `(${text}${image} "mixed" ("boundary" "b") NIL NIL NIL)` : text;
  const change = script.flagChange;
  const flags = change?.sent && change.seq === n ? change.flags : "\\Seen";
  return `* ${n} FETCH (UID ${n} FLAGS (${flags}) RFC822.SIZE 300 INTERNALDATE "05-Mar-2024 10:00:00 +0000" ENVELOPE ${env} BODYSTRUCTURE ${body})\r\n`;
}

/** `byUid`: the command came as UID FETCH / UID SEARCH. */
type Reply = (socket: Socket, tag: string, args: string, byUid?: boolean) => boolean | void;

// Each handler writes its answer; returning true means "the script took over" (hang or drop).
function handlers(script: Script): Record<string, Reply> {
  const base = plainHandlers(script);
  if (script.courier) return { ...base, ...courierHandlers(script.courier, (n) => fetchLine(n, script)) };
  return script.gmail ? { ...base, ...gmailHandlers(script.gmail, (n) => fetchLine(n, script), base) } : base;
}

function plainHandlers(script: Script): Record<string, Reply> {
  let fetches = 0;
  const CAPS = script.gmail ? GMAIL_CAPS : PLAIN_CAPS;
  return {
    CAPABILITY: (s, tag) => void s.write(`* CAPABILITY ${CAPS}\r\n${tag} OK done\r\n`),
    LOGIN: (s, tag) => {
      if (script.preauth) return void s.write(`${tag} BAD already authenticated\r\n`);
      if (script.login === "hang") return true;
      if (script.login === "refuse") return void s.write(`${tag} NO [AUTHENTICATIONFAILED] Invalid credentials (fake)\r\n`);
      s.write(`${tag} OK [CAPABILITY ${CAPS}] Logged in\r\n`);
    },
    LIST: (s, tag, args) => {
      if (args.endsWith('""')) return void s.write(`* LIST (\\Noselect) "/" ""\r\n${tag} OK done\r\n`);
      s.write(`* LIST (\\HasNoChildren) "/" INBOX\r\n${folderLines("LIST (\\HasNoChildren)", script.folders)}${tag} OK done\r\n`);
    },
    LSUB: (s, tag) => void s.write(`* LSUB () "/" INBOX\r\n${folderLines("LSUB ()", script.folders)}${tag} OK done\r\n`),
    STATUS: (s, tag, args) => void s.write(`* STATUS ${args.split(" (")[0]} (MESSAGES 1 UNSEEN 0)\r\n${tag} OK done\r\n`),
    SELECT: (s, tag) => void s.write(selectReply(tag, script.permanentFlags)),
    EXAMINE: (s, tag) => void s.write(selectReply(tag).replace("[READ-WRITE]", "[READ-ONLY]")),
    SEARCH: (s, tag) => void s.write(`* SEARCH ${MESSAGES.join(" ")}\r\n${tag} OK done\r\n`),
    FETCH: (s, tag, args) => {
      if (script.fetch === "hang") return true;
      fetches++;
      if (script.fetch === "drop" || (script.fetch === "ok-then-drop" && fetches > 1)) {
        s.write(fetchLine(3).slice(0, 40)); // half a response, then the line goes dead
        s.destroy();
        return true;
      }
      if (script.fetch === "huge-subject") return void sendHuge(s, tag, script.hugeBytes ?? 50 * 1024 * 1024, script.hugeCount);
      const partial = /BODY\.PEEK\[2\]<0\.(\d+)>/i.exec(args);
      if (script.part && partial) return void sendPart(s, tag, script, Number(partial[1]));
      s.write(MESSAGES.filter(inSet(args.split(" ")[0] ?? "")).map((n) => fetchLine(n, script)).join("") + reportFlags(script, "FETCH") + `${tag} OK done\r\n`);
    },
    NOOP: (s, tag) => void s.write(`${reportFlags(script, "NOOP")}${tag} OK done\r\n`),
    LOGOUT: (s, tag) => { s.write(`* BYE bye\r\n${tag} OK done\r\n`); s.end(); },
  };
}

/** The scripted flag change, once, at the end of the command `now` when it is the one it waits for. */
function reportFlags(script: Script, now: "FETCH" | "NOOP"): string {
  const change = script.flagChange;
  if (!change || change.sent || change.after !== now) return "";
  change.sent = true;
  return `* ${change.seq} FETCH (FLAGS (${change.flags}))\r\n`;
}

/**
 * FETCH answers whose ENVELOPE subject is a literal of `bytes` bytes, streamed 1 MB at a time: one
 * for uid 3, or `count` of them (uids 1…count, whatever was asked), as a hostile server would send.
 */
async function sendHuge(s: Socket, tag: string, bytes: number, count?: number): Promise<void> {
  const addr = `(("Carol" NIL "carol" "example.net"))`;
  const chunk = Buffer.alloc(1024 * 1024, "A");
  for (const n of count ? Array.from({ length: count }, (_, i) => i + 1) : [3]) {
    s.write(`* ${n} FETCH (UID ${n} FLAGS () RFC822.SIZE 300 ENVELOPE ("Tue, 05 Mar 2024 10:00:00 +0000" {${bytes}}\r\n`);
    for (let sent = 0; sent < bytes && !s.destroyed; sent += chunk.length) {
      if (!s.write(chunk.subarray(0, Math.min(chunk.length, bytes - sent)))) await drained(s);
    }
    if (s.destroyed) return;
    s.write(` ${addr} ${addr} ${addr} NIL NIL NIL NIL NIL "<huge-${n}@example.test>"))\r\n`);
  }
  s.write(`${tag} OK done\r\n`);
}

const folderName = (n: number) => `Folder/${String(n).padStart(5, "0")}`;

function folderLines(prefix: string, count = 0): string {
  return Array.from({ length: count }, (_, i) => `* ${prefix} "/" "${folderName(i + 1)}"\r\n`).join("");
}

/** Until the socket can take more, or is gone. */
function drained(s: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off("drain", done).off("close", done);
      resolve();
    };
    s.once("drain", done).once("close", done);
  });
}

/** Part 2 of message 3, at most `max` octets of it (the partial FETCH the client asked for). */
function sendPart(s: Socket, tag: string, script: Script, max: number): void {
  const data = Buffer.from(script.part!.content.slice(0, max), "latin1");
  script.partBytesSent = (script.partBytesSent ?? 0) + data.length;
  s.write(`* 3 FETCH (UID 3 BODY[2]<0> {${data.length}}\r\n`);
  s.write(data);
  s.write(`)\r\n${tag} OK done\r\n`);
}

/** Membership in an IMAP sequence set such as "2:3", "1,3" or "2:*" (UIDs equal sequence numbers here). */
function inSet(set: string): (n: number) => boolean {
  const last = MESSAGES.length;
  const ranges = set.split(",").map((p) => p.split(":").map((x) => (x === "*" ? last : Number(x))));
  return (n) => ranges.some(([a = 0, b = a]) => n >= Math.min(a, b) && n <= Math.max(a, b));
}

function selectReply(tag: string, permanentFlags?: string): string {
  const permanent = permanentFlags === undefined ? "" : `* OK [PERMANENTFLAGS (${permanentFlags})] ok\r\n`;
  return `* ${MESSAGES.length} EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen \\Flagged)\r\n${permanent}* OK [UIDVALIDITY 7] ok\r\n` +
    `* OK [UIDNEXT ${MESSAGES.length + 1}] ok\r\n${tag} OK [READ-WRITE] done\r\n`;
}

function serve(socket: Socket, script: Script, received: Record<string, number>): void {
  socket.on("error", () => {});
  if (script.greet === false) return;
  socket.write(`* ${script.preauth ? "PREAUTH" : "OK"} [CAPABILITY ${script.greetingCaps ?? (script.gmail ? GMAIL_CAPS : PLAIN_CAPS)}] fake ready\r\n`);
  const table = handlers(script);
  let buffer = "";
  let losing = false;
  socket.on("data", (chunk) => {
    buffer += chunk.toString("latin1");
    let nl;
    while ((nl = buffer.indexOf("\r\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      if (losing) continue;
      const [tag = "*", ...rest] = line.split(" ");
      // "UID FETCH" and "UID SEARCH" are answered like their plain forms.
      const words = rest[0]?.toUpperCase() === "UID" ? rest.slice(1) : rest;
      const name = words[0]?.toUpperCase() ?? "";
      received[name] = (received[name] ?? 0) + 1;
      if (name === "LOGIN" && script.loseAfterLogin) {
        losing = true;
        setTimeout(() => { losing = false; socket.write(`${tag} OK [CAPABILITY ${PLAIN_CAPS}] Logged in\r\n`); }, 30); // the hand-over
        continue;
      }
      const handler = table[name];
      if (!handler) socket.write(`${tag} BAD unknown command\r\n`);
      else if (handler(socket, tag, words.slice(1).join(" "), words !== rest)) return;
    }
  });
}

export async function startFakeImap(script: (n: number) => Script = () => ({})): Promise<FakeImap> {
  const sockets = new Set<Socket>();
  const fake: FakeImap = { host: "127.0.0.1", port: 0, connections: 0, received: {}, script,
    dropAll: () => { for (const s of sockets) s.destroy(); },
    stop: async () => {},
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    serve(socket, fake.script(++fake.connections), fake.received);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as { port: number }).port;
  fake.stop = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  return fake;
}
