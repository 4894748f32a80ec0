// A Courier-like INBOX for the scripted server (./fake-imap.ts): IMAP4rev1 without CONDSTORE,
// QRESYNC or ESEARCH, and a SELECT that sends no UIDNEXT (Courier 5 tells it only to STATUS). The
// folder lives in a state another client may change (deliver, expunge) between calls; each
// connection keeps its own view of it and hears of changes on NOOP (EXPUNGE, then EXISTS), as
// RFC 3501 §7.4.1 has it.
import type { Socket } from "node:net";

export interface CourierState {
  uids: number[];
  uidNext: number;
  uidValidity: number;
  /** Every STATUS command line received, for a test to read. */
  statuses: string[];
}

export const courierState = (): CourierState => ({ uids: [1, 2, 3], uidNext: 4, uidValidity: 7, statuses: [] });

/** Another client: one message in. */
export function courierDeliver(state: CourierState): number {
  state.uids.push(state.uidNext);
  return state.uidNext++;
}

/** Another client: one message expunged. */
export function courierExpunge(state: CourierState, uid: number): void {
  state.uids = state.uids.filter((u) => u !== uid);
}

type Reply = (socket: Socket, tag: string, args: string, byUid?: boolean) => boolean | void;

/** Membership in a set such as "2:3", "1,3" or "4:*", where "*" is `last`. */
function inSet(set: string, last: number): (n: number) => boolean {
  const ranges = set.split(",").map((p) => p.split(":").map((x) => (x === "*" ? last : Number(x))));
  return (n) => ranges.some(([a = 0, b = a]) => n >= Math.min(a, b) && n <= Math.max(a, b));
}

/** `fetchLine(uid)`: the answer for that message, as the plain fake writes it (its seq is rewritten here). */
export function courierHandlers(state: CourierState, fetchLine: (uid: number) => string): Record<string, Reply> {
  let view: number[] = [];
  const select: Reply = (s, tag) => {
    view = [...state.uids];
    s.write(`* ${view.length} EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen \\Flagged)\r\n* OK [UIDVALIDITY ${state.uidValidity}] ok\r\n${tag} OK [READ-ONLY] done\r\n`);
  };
  return {
    SELECT: select,
    EXAMINE: select,
    STATUS: (s, tag, args) => {
      state.statuses.push(args);
      const items: Record<string, number> = { MESSAGES: state.uids.length, UIDNEXT: state.uidNext, UIDVALIDITY: state.uidValidity, UNSEEN: 0 };
      const asked = Object.keys(items).filter((k) => args.toUpperCase().includes(k));
      s.write(`* STATUS ${args.split(" (")[0]} (${asked.map((k) => `${k} ${items[k]}`).join(" ")})\r\n${tag} OK done\r\n`);
    },
    SEARCH: (s, tag, args) => {
      const set = /UID (\S+)/i.exec(args)?.[1];
      const found = set ? view.filter(inSet(set, Math.max(0, ...view))) : view;
      s.write(`* SEARCH${found.map((u) => ` ${u}`).join("")}\r\n${tag} OK done\r\n`);
    },
    FETCH: (s, tag, args, byUid) => {
      const set = args.split(" ")[0] ?? "";
      const hit = byUid ? inSet(set, Math.max(0, ...view)) : (() => { const f = inSet(set, view.length); return (u: number) => f(view.indexOf(u) + 1); })();
      const lines = view.filter(hit).map((u) => fetchLine(u).replace(/^\* \d+/, `* ${view.indexOf(u) + 1}`));
      s.write(`${lines.join("")}${tag} OK done\r\n`);
    },
    NOOP: (s, tag) => {
      let out = "";
      for (let seq = view.length; seq >= 1; seq--) {
        if (!state.uids.includes(view[seq - 1]!)) out += `* ${seq} EXPUNGE\r\n`;
      }
      const added = state.uids.filter((u) => !view.includes(u));
      view = [...view.filter((u) => state.uids.includes(u)), ...added];
      if (added.length) out += `* ${view.length} EXISTS\r\n`;
      s.write(`${out}${tag} OK done\r\n`);
    },
  };
}
