// Generated IMAP response lines (RFC 9051 §7) as imapflow's parser receives them: FETCH with ENVELOPE,
// BODYSTRUCTURE and sections, SEARCH and ESEARCH result sets, LIST, STATUS, status responses with
// response codes, continuations, and those lines broken (characters dropped, inserted, replaced,
// the line cut short, NUL padding), for the patched parser to be held to the unpatched one.
import type { Rng } from "../support/seeded.ts";
import {
  FLAGS, LineWriter, atom, bodystructure, envelope, list, literal, number, quoted, sectionItem, sequenceSet, value,
} from "./imap-values.ts";

export type ImapLine = {
  /** What ImapStream hands the parser: the line (literal markers included) as bytes, or a string. */
  payload: Buffer | string;
  /** The literals' bytes ImapStream took out of the line, or undefined when they are inline. */
  literals?: Buffer[];
};

function fetchPair(rng: Rng, out: LineWriter): void {
  switch (rng.int(13)) {
    case 0: out.write(`UID ${number(rng)}`); break;
    case 1: out.write("FLAGS "); list(rng, out, 0, () => out.write(rng.pick(FLAGS))); break;
    case 2: out.write(`RFC822.SIZE ${number(rng)}`); break;
    case 3: out.write(`INTERNALDATE ${rng.pick(['"17-Jul-1996 02:44:25 -0700"', '"bogus"', "NIL"])}`); break;
    case 4: out.write("ENVELOPE "); if (rng.chance(0.9)) envelope(rng, out); else out.write("NIL"); break;
    case 5: out.write(`${rng.pick(["BODYSTRUCTURE", "BODY"])} `); bodystructure(rng, out); break;
    case 6: out.write(`${sectionItem(rng)} `); if (rng.chance(0.6)) literal(rng, out); else out.write(quoted(rng)); break;
    case 7: out.write(`MODSEQ (${number(rng)})`); break;
    case 8: out.write(`${rng.pick(["EMAILID", "THREADID"])} ${rng.pick(["(M6d99ac3275bb4e)", "NIL", "(T64b478a75b7ea9)"])}`); break;
    case 9: out.write("X-GM-LABELS "); list(rng, out, 0, () => out.write(rng.pick(['"\\\\Inbox"', "\\Important", '"Work"']))); break;
    case 10: out.write(`${rng.pick(["X-GM-MSGID", "X-GM-THRID"])} ${number(rng)}`); break;
    case 11: out.write(`BINARY[${rng.pick(["1", "2.1", ""])}] `); literal(rng, out); break;
    default: out.write(`${atom(rng)} `); value(rng, out, 2);
  }
}

const CODES = ["READ-WRITE", "READ-ONLY", "ALERT", "UIDVALIDITY 3857529045", "UIDNEXT 4392", "HIGHESTMODSEQ 715194045007",
  "PERMANENTFLAGS (\\Deleted \\Seen \\*)", "PERMANENTFLAGS (\\Answered [css3-page] \\*)", "CAPABILITY IMAP4rev1 IDLE",
  "COPYUID 38505 304,319:320 3956:3958", "APPENDUID 38505 3955", "REFERRAL imap://user@host/INBOX",
  "REFERRAL imap://[::1]/INBOX", "REFERRAL imap://x", "UNSEEN 12", "CLOSED", "NONEXISTENT", "TRYCREATE", "a [b"];

function statusLine(rng: Rng, out: LineWriter): void {
  const tag = rng.pick(["*", "A1", "A0042", "x.1"]);
  out.write(`${tag} ${rng.pick(["OK", "NO", "BAD", "BYE", "PREAUTH", "ok", "No"])}`);
  if (rng.chance(0.7)) out.write(` [${rng.pick(CODES)}]`);
  if (rng.chance(0.8)) out.write(` ${rng.pick(["Completed", "SELECT completed (0.001 + 0.000 secs).", "done [x] (y)", ""])}`);
}

const SOUP = ["(", ")", "[", "]", "{", "}", "<", ">", '"', "\\", "*", ":", ",", ".", "~", "%", " ", "0", "1", "9", "a",
  "Z", "BODY", "body.peek", "NIL", "\\Seen", "é", "\r\n", "+", "{2}\r\n", "$"];

/** The text of one line, before it is broken or encoded. */
function lineText(rng: Rng, out: LineWriter): void {
  const w = rng.int(100);
  if (w < 30) {
    out.write(`* ${number(rng)} FETCH (`);
    for (let n = rng.between(1, 6), i = 0; i < n; i++) {
      if (i > 0) out.write(" ");
      fetchPair(rng, out);
    }
    out.write(")");
  } else if (w < 38) {
    out.write(`* SEARCH${rng.times(rng.int(30), () => ` ${rng.between(1, 99999)}`).join("")}`);
    if (rng.chance(0.2)) out.write(` (MODSEQ ${number(rng)})`);
  } else if (w < 46) {
    out.write(`* ESEARCH (TAG "A${rng.int(999)}")${rng.chance(0.7) ? " UID" : ""}`);
    for (const item of ["MIN", "MAX", "COUNT", "ALL", "PARTIAL"]) {
      if (!rng.chance(0.5)) continue;
      if (item === "ALL") out.write(` ALL ${sequenceSet(rng)}`);
      else if (item === "PARTIAL") out.write(` PARTIAL (-1:-100 ${sequenceSet(rng)})`);
      else out.write(` ${item} ${number(rng)}`);
    }
  } else if (w < 54) {
    out.write("* LIST ");
    list(rng, out, 0, () => out.write(rng.pick(FLAGS)));
    out.write(` ${rng.pick(['"/"', '"."', "NIL", '"\\\\"'])} `);
    if (rng.chance(0.8)) out.write(rng.pick([quoted(rng), atom(rng)]));
    else literal(rng, out);
  } else if (w < 60) {
    out.write(`* STATUS ${rng.pick(["INBOX", '"Sent Items"', quoted(rng)])} (MESSAGES ${number(rng)} UIDNEXT ${number(rng)})`);
  } else if (w < 74) {
    statusLine(rng, out);
  } else if (w < 78) {
    out.write(rng.pick(["+ idling", "+", "+ ", "+ Ready for literal data", `+ ${quoted(rng)}`]));
  } else if (w < 84) {
    out.write(rng.pick([`* ${number(rng)} EXISTS`, `* ${number(rng)} EXPUNGE`, `* VANISHED (EARLIER) ${sequenceSet(rng)}`,
      "* CAPABILITY IMAP4rev1 LITERAL+ AUTH=PLAIN", "Server Unavailable. 15", `* ENABLED CONDSTORE`, "* NAMESPACE ((\"\" \"/\")) NIL NIL"]));
  } else if (w < 87) {
    const depth = rng.between(20, 30);
    out.write(`* ID ${"(".repeat(depth)}"x"${")".repeat(rng.chance(0.8) ? depth : depth - 1)}`);
  } else if (w < 93) {
    // Character soup after a plausible start: every transition of the tokenizer's state machine, at
    // every position a fast path (a run of string, atom or digit characters) can start or stop.
    out.write(rng.pick(["* 1 FETCH (", "* SEARCH ", "* OK [", "A1 NO ", "* 2 FETCH (BODY[", "* ESEARCH ALL ", "* X "]));
    out.write(rng.text(SOUP, rng.between(1, 40)));
  } else {
    out.write(`${rng.pick(["*", "A1", "*", "+x", "a(b", "A1 UID"])} ${rng.pick([atom(rng), "UID FETCH", "FETCH", "X"])}`);
    for (let n = rng.int(5); n > 0; n--) {
      out.write(" ");
      value(rng, out, 3);
    }
  }
}

const NOISE = ["(", ")", "[", "]", "{", "}", "<", ">", '"', "\\", "*", ":", ",", " ", "~", "%", ".", "0", "9", "a",
  "\r", "\n", "\0", "\x7f", "é", "+", "]<", "{5}\r\n"];

/** Breaks a line: characters dropped, inserted, replaced or doubled, the line cut short. */
function breakLine(rng: Rng, text: string): string {
  for (let edits = rng.between(1, 3); edits > 0 && text.length > 0; edits--) {
    const at = rng.int(text.length);
    switch (rng.int(5)) {
      case 0: text = text.slice(0, at) + text.slice(at + 1); break;
      case 1: text = text.slice(0, at) + rng.pick(NOISE) + text.slice(at); break;
      case 2: text = text.slice(0, at) + rng.pick(NOISE) + text.slice(at + 1); break;
      case 3: text = text.slice(0, at) + text.slice(at, at + rng.between(1, 8)) + text.slice(at); break;
      default: text = text.slice(0, at);
    }
  }
  return text;
}

export function imapLine(rng: Rng): ImapLine {
  const out = new LineWriter(rng.chance(0.3));
  lineText(rng, out);
  let text = rng.chance(0.3) ? breakLine(rng, out.text) : out.text;
  if (rng.chance(0.02)) text = "\0".repeat(rng.between(1, 3)) + text;
  const literals = out.inlineLiterals ? undefined : out.literals;
  const encoding = rng.int(10);
  const payload = encoding < 7 ? Buffer.from(text) : encoding < 9 ? Buffer.from(text, "latin1") : text;
  return { payload, literals };
}

/** A FETCH response line, unbroken: what formatMessageResponse turns into a message. */
export function fetchLine(rng: Rng): ImapLine {
  const out = new LineWriter(false);
  out.write(`* ${rng.chance(0.95) ? rng.between(1, 5000) : number(rng)} FETCH (`);
  // Most FETCH responses imapflow reads carry the UID (it asks for it): the message id is made of it.
  if (rng.chance(0.6)) out.write(`UID ${rng.between(1, 99999)} `);
  const pairs = rng.between(1, 7);
  for (let i = 0; i < pairs; i++) {
    if (i > 0) out.write(" ");
    fetchPair(rng, out);
  }
  out.write(")");
  return { payload: Buffer.from(out.text), literals: out.literals };
}

/**
 * A FETCH response of the header-field kind find_contacts reads ("* 7 FETCH (UID 7 BODY[HEADER.FIELDS
 * (TO CC)] {98}\r\n)"), which the patched parser reads without its token parser, with near misses
 * of that shape (another case, a partial, a quoted value, NIL, odd spacing) and some broken.
 */
export function headerFetchLine(rng: Rng): ImapLine {
  const out = new LineWriter(false);
  out.write(`* ${rng.chance(0.9) ? rng.between(1, 5000) : number(rng)} ${rng.chance(0.95) ? "FETCH" : "fetch"} (`);
  const pairs = rng.between(1, 4);
  for (let i = 0; i < pairs; i++) {
    if (i > 0) out.write(rng.chance(0.95) ? " " : rng.pick(["  ", ""]));
    switch (rng.int(8)) {
      case 0: case 1: out.write(`UID ${rng.chance(0.9) ? rng.between(1, 99999) : number(rng)}`); break;
      case 2: out.write(`RFC822.SIZE ${number(rng)}`); break;
      case 3: out.write(rng.chance(0.3) ? `MODSEQ (${number(rng)})` : `UID ${rng.between(1, 99999)}`); break;
      default: {
        const name = rng.pick(["BODY", "BODY", "BODY", "BINARY", "body", "BODY.PEEK", "RFC822", "X-BODY"]);
        const fields = rng.chance(0.7) ? rng.pick(["TO CC BCC DATE", "FROM DATE", "X-Original-To"]) : rng.pick(["FROM", "NIL", "\"TO\"", "TO  CC", ""]);
        const section = rng.chance(0.8) ? `HEADER.FIELDS (${fields})` : rng.pick(["HEADER", "1.MIME", "", "HEADER.FIELDS TO", "1.2"]);
        out.write(`${rng.chance(0.7) ? "BODY" : name}[${section}]`);
        if (rng.chance(0.05)) out.write(rng.pick(["<0>", "<0.10>"]));
        out.write(" ");
        const block = Buffer.from(rng.pick(["To: a@b.example\r\n\r\n", "\r\n", "From: \"Zoë\" <z@x.example>\r\nDate: 1 Jan 2024\r\n\r\n", ""]));
        if (rng.chance(0.8)) out.literal(block, `{${block.length}}\r\n`);
        else if (rng.chance(0.7)) literal(rng, out);
        else out.write(rng.pick(['"To: x"', "NIL", "{2}\r\n", "12"]));
      }
    }
  }
  out.write(rng.pick([")", ")", ")", ")", ") ", "", "))"]));
  const text = rng.chance(0.15) ? breakLine(rng, out.text) : out.text;
  return { payload: Buffer.from(text, rng.chance(0.5) ? "utf8" : "latin1"), literals: out.literals };
}

/** A line as text, for a failure message (its bytes as latin1, so that none is hidden). */
export function showLine(line: ImapLine): unknown {
  const text = (bytes: Buffer | string) => (typeof bytes === "string" ? bytes : bytes.toString("latin1"));
  return { payload: text(line.payload), asBytes: Buffer.isBuffer(line.payload), literals: line.literals?.map(text) };
}
