// The quoted history at the bottom of a message, which get_thread leaves out by default: the thread
// already shows those messages, and a model reading each one again wastes its context (and may take
// an old quote for a new statement). Only what trails the message is cut, as mail clients fold it:
// a `>`-quoted block with its attribution line ("On <date>, <name> wrote:"), or everything from an
// Outlook-style separator ("-----Original Message-----", or a From/Sent/To/Subject block) on. Quotes
// between the writer's own lines (an answer given point by point) stay: they carry meaning there.

export interface Trimmed {
  text: string;
  /** Something was cut. */
  trimmed: boolean;
}

// The attribution line mail clients write above a quote ("On <date>, <name> wrote:"), in the
// languages most often seen; a long one is wrapped over two lines by some clients
// ("On Tue, … Carol Example" / "<carol@…> wrote:", "Am …, schrieb Carol" / "<carol@…>:").
const ATTRIBUTION_VERB = /\b(wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|skrev|napisał|написал|escreveu)\b/i;
const ATTRIBUTION_START = /^(on|am|le|el|il|op|den|dnia|em)\b/i;
// Outlook and others put the history under a separator instead of quoting it.
const SEPARATOR = /^\s*(-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original)\s*-{2,}|_{20,})\s*$/i;
// A forwarded or attached message's header block is content, not history: never cut.
const KEEP_BLOCK = /(forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|attached message)/i;
const HEADER_LINE = /^\s*\*?(from|von|de|sent|gesendet|envoyé|enviado|date|datum|to|an|à|para|subject|betreff|objet|asunto)\*?\s*:/i;

export function trimQuoted(text: string): Trimmed {
  const lines = text.split("\n");
  let end = historyStart(lines);
  const cut = end < lines.length;
  // Then the trailing quote block, blank lines within it included, and its attribution.
  let i = end;
  while (i > 0 && (lines[i - 1]!.trim() === "" || lines[i - 1]!.startsWith(">"))) i--;
  if (lines.slice(i, end).some((l) => l.startsWith(">"))) {
    end = i - attributionLines(lines, i);
  }
  if (!cut && end === lines.length) return { text, trimmed: false };
  const kept = lines.slice(0, end).join("\n").replace(/\s+$/, "");
  // A message that is nothing but a quote (a bare forward-like reply) is left whole.
  return kept ? { text: kept, trimmed: true } : { text, trimmed: false };
}

/** How many lines just above `at` are a quote's attribution: 0, 1, or 2 when it was wrapped. */
function attributionLines(lines: string[], at: number): number {
  const last = lines[at - 1];
  if (last === undefined || !/:\s*$/.test(last)) return 0;
  const before = lines[at - 2];
  const wrapped = before !== undefined && ATTRIBUTION_START.test(before) && !ATTRIBUTION_START.test(last) && ATTRIBUTION_VERB.test(before + last);
  if (wrapped) return 2;
  return ATTRIBUTION_VERB.test(last) ? 1 : 0;
}

/** The first line of an Outlook-style history block (a separator, or three header lines in a row), else the end. */
function historyStart(lines: string[]): number {
  for (let i = 1; i < lines.length; i++) {
    if (SEPARATOR.test(lines[i]!)) return i;
    const block = /^\s*\*?(from|von|de)\*?\s*:/i.test(lines[i]!) && lines.slice(i, i + 4).filter((l) => HEADER_LINE.test(l)).length >= 3;
    if (block && !KEEP_BLOCK.test(lines[i - 1]!)) return i;
  }
  return lines.length;
}
