// Gmail's IMAP dialect for the scripted server (./fake-imap.ts): X-GM-EXT-1 labels (STORE and FETCH
// X-GM-LABELS, labels in modified UTF-7; X-GM-THRID, the three messages being one conversation), the
// [Gmail]/… folders marked with their RFC 6154 use, and a UID MOVE answered with COPYUID, as
// imap.gmail.com does. Only what a test reads back is kept.
import type { Socket } from "node:net";
import { labelSent, sentHandlers, type GmailSent } from "./fake-gmail-sent.ts";

export const GMAIL_CAPS = "IMAP4rev1 X-GM-EXT-1 UIDPLUS MOVE SPECIAL-USE";

export interface GmailState extends GmailSent {
  /** Labels per UID (raw, as sent on the wire). */
  labels: Map<number, string[]>;
  /** Every STORE and MOVE command line received, for a test to read. */
  commands: string[];
}

export const gmailState = (): GmailState => ({
  labels: new Map([[1, ["\\Inbox"]], [2, ["\\Inbox"]], [3, ["\\Inbox"]]]), commands: [], sent: new Map(), sentUidNext: 40, to: new Map(),
});

type Reply = (socket: Socket, tag: string, args: string) => boolean | void;

/** The label list of a STORE, e.g. `("My Label" \Important Work)`: quoted strings and atoms. */
function parseList(text: string): string[] {
  const inner = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")"));
  return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2]!));
}

const quoted = (l: string) => (l.startsWith("\\") ? l : `"${l.replace(/["\\]/g, "\\$&")}"`);

/** Gmail's answers over `base` (the plain server's), Sent Mail's over both (./fake-gmail-sent.ts). */
export function gmailHandlers(state: GmailState, fetchLine: (n: number) => string, base: Record<string, Reply>): Record<string, Reply> {
  const own = labelHandlers(state, fetchLine);
  return { ...own, ...sentHandlers(state, { ...base, ...own }, fetchLine) };
}

function labelHandlers(state: GmailState, fetchLine: (n: number) => string): Record<string, Reply> {
  return {
    LIST: (s, tag, args) => {
      if (args.endsWith('""')) return void s.write(`* LIST (\\Noselect) "/" ""\r\n${tag} OK done\r\n`);
      s.write(`* LIST (\\HasNoChildren) "/" "INBOX"\r\n* LIST (\\HasChildren \\Noselect) "/" "[Gmail]"\r\n` +
        `* LIST (\\All \\HasNoChildren) "/" "[Gmail]/All Mail"\r\n* LIST (\\HasNoChildren \\Trash) "/" "[Gmail]/Trash"\r\n` +
        `* LIST (\\HasNoChildren \\Sent) "/" "[Gmail]/Sent Mail"\r\n${tag} OK done\r\n`);
    },
    STORE: (s, tag, args) => {
      state.commands.push(`STORE ${args}`);
      const [set = "", op = ""] = args.split(" ");
      const labels = parseList(args);
      for (const uid of set.split(",").map(Number)) {
        const now = new Set(state.labels.get(uid) ?? []);
        for (const l of labels) op.startsWith("-") ? now.delete(l) : now.add(l);
        state.labels.set(uid, [...now]);
      }
      labelSent(state, op, set.split(",").map(Number), labels);
      s.write(`${tag} OK Success\r\n`);
    },
    MOVE: (s, tag, args) => {
      state.commands.push(`MOVE ${args}`);
      const uid = Number(args.split(" ")[0]);
      s.write(`* OK [COPYUID 7 ${uid} ${500 + uid}] moved\r\n* ${uid} EXPUNGE\r\n${tag} OK Success\r\n`);
    },
    FETCH: (s, tag, args) => {
      const [set = ""] = args.split(" ");
      const uids = set.split(",").flatMap((p) => (p.includes(":") ? [1, 2, 3] : [Number(p)])).filter((n) => n >= 1 && n <= 3);
      const lines = [...new Set(uids)].map((n) => withSections(fetchLine(n).replace("FLAGS (", `X-GM-LABELS (${(state.labels.get(n) ?? []).map(quoted).join(" ")}) FLAGS (`), n, args));
      s.write(lines.join("") + `${tag} OK Success\r\n`);
    },
    // Every search matches all three; recorded so a test sees which keys were sent.
    SEARCH: (s, tag, args) => {
      state.commands.push(`SEARCH ${args}`);
      s.write(`* SEARCH 1 2 3\r\n${tag} OK Success\r\n`);
    },
  };
}

/** The thread id, header fields and first octets a FETCH asked for, as literals (get_thread reads them). */
function withSections(line: string, n: number, args: string): string {
  const raw = `Subject: Fake message ${n}\r\nMessage-ID: <fake-${n}@example.test>\r\n\r\nBody of message ${n}.\r\n`;
  const extra = [
    ...(/X-GM-THRID/i.test(args) ? ["X-GM-THRID 1700000000000000001"] : []),
    ...(/HEADER\.FIELDS/i.test(args) ? ["BODY[HEADER.FIELDS (REFERENCES IN-REPLY-TO)] {2}\r\n\r\n"] : []),
    ...(/BODY\.PEEK\[\]<0\./i.test(args) ? [`BODY[]<0> {${raw.length}}\r\n${raw}`] : []),
  ];
  return extra.length ? line.replace(/\)\r\n$/, ` ${extra.join(" ")})\r\n`) : line;
}
