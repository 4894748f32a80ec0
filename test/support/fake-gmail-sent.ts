// Gmail's "[Gmail]/Sent Mail" for the scripted server (./fake-gmail.ts): on Gmail a folder is a label,
// so a message labelled \Sent (or with the folder's own name) shows up in Sent Mail under a UID of
// that folder, the next one, as it does in All Mail. What the send gate reads there is answered:
// SELECT/EXAMINE and STATUS with UIDVALIDITY and UIDNEXT, SEARCH by TO/CC/BCC, FETCH of envelopes.
import type { Socket } from "node:net";

export const SENT_PATH = "[Gmail]/Sent Mail";
const SENT_LABELS = new Set(["\\Sent", SENT_PATH]);
const SENT_VALIDITY = 9;

export interface GmailSent {
  /** Sent Mail's UIDs → the message (1-3) each shows. */
  sent: Map<number, number>;
  sentUidNext: number;
  /** The envelope To of a message (1-3), when not alice's own address. */
  to: Map<number, string>;
}

type Reply = (socket: Socket, tag: string, args: string) => boolean | void;

/** The mailbox name a SELECT, EXAMINE or STATUS names (quoted or an atom). */
const mailboxArg = (args: string) => (/^"((?:[^"\\]|\\.)*)"/.exec(args)?.[1] ?? args.split(" ")[0] ?? "").replace(/\\(.)/g, "$1");

/** A STORE that adds the Sent label: each message gets a Sent Mail UID, once. */
export function labelSent(state: GmailSent, op: string, uids: number[], labels: string[]): void {
  if (op.startsWith("-") || !labels.some((l) => SENT_LABELS.has(l))) return;
  const shown = new Set(state.sent.values());
  for (const n of uids) if (!shown.has(n)) state.sent.set(state.sentUidNext++, n);
}

/** An envelope line of message `n` as Sent Mail's `uid`, addressed to its To. */
function sentLine(state: GmailSent, fetchLine: (n: number) => string, seq: number, uid: number, n: number): string {
  const [local, domain] = (state.to.get(n) ?? "alice@example.test").split("@");
  return fetchLine(n).replace(`* ${n} FETCH (UID ${n} `, `* ${seq} FETCH (UID ${uid} `)
    .replace(`((NIL NIL "alice" "example.test"))`, `((NIL NIL "${local}" "${domain}"))`);
}

/** The UIDs of a UID set such as "1:39" or "40,41" among `uids`. */
const inUidSet = (set: string, uids: number[]) => {
  const ranges = set.split(",").map((p) => p.split(":").map((x) => (x === "*" ? Infinity : Number(x))));
  return uids.filter((u) => ranges.some(([a = 0, b = a]) => u >= Math.min(a, b) && u <= Math.max(a, b)));
};

/** Handlers that answer for Sent Mail while it is selected (or named), and leave the rest to `base`. */
export function sentHandlers(state: GmailSent, base: Record<string, Reply>, fetchLine: (n: number) => string): Record<string, Reply> {
  let inSent = false;
  const uids = () => [...state.sent.keys()].sort((a, b) => a - b);
  const select = (name: "SELECT" | "EXAMINE"): Reply => (s, tag, args) => {
    inSent = mailboxArg(args) === SENT_PATH;
    if (!inSent) return base[name]!(s, tag, args);
    s.write(`* ${state.sent.size} EXISTS\r\n* FLAGS (\\Seen \\Flagged)\r\n* OK [UIDVALIDITY ${SENT_VALIDITY}] ok\r\n` +
      `* OK [UIDNEXT ${state.sentUidNext}] ok\r\n${tag} OK [${name === "SELECT" ? "READ-WRITE" : "READ-ONLY"}] done\r\n`);
  };
  return {
    SELECT: select("SELECT"),
    EXAMINE: select("EXAMINE"),
    STATUS: (s, tag, args) => {
      if (mailboxArg(args) !== SENT_PATH) return base.STATUS!(s, tag, args);
      s.write(`* STATUS "${SENT_PATH}" (MESSAGES ${state.sent.size} UIDNEXT ${state.sentUidNext} UIDVALIDITY ${SENT_VALIDITY})\r\n${tag} OK done\r\n`);
    },
    SEARCH: (s, tag, args) => {
      if (!inSent) return base.SEARCH!(s, tag, args);
      const range = /(?:^|\s)UID (\S+)/i.exec(args)?.[1];
      const address = (/(?:TO|CC|BCC) ("[^"]*"|\S+)/i.exec(args)?.[1] ?? "").replace(/"/g, "").toLowerCase();
      const hits = (range ? inUidSet(range, uids()) : uids()).filter((u) => (state.to.get(state.sent.get(u)!) ?? "").toLowerCase().includes(address));
      s.write(`* SEARCH${hits.map((u) => ` ${u}`).join("")}\r\n${tag} OK done\r\n`);
    },
    FETCH: (s, tag, args) => {
      if (!inSent) return base.FETCH!(s, tag, args);
      const all = uids();
      const lines = inUidSet(args.split(" ")[0] ?? "", all).map((u) => sentLine(state, fetchLine, all.indexOf(u) + 1, u, state.sent.get(u)!));
      s.write(lines.join("") + `${tag} OK done\r\n`);
    },
  };
}
