// The content lines of iCalendar (RFC 5545 §3.1) and vCard (RFC 6350 §3.2): lines unfolded (a
// line starting with a space or tab continues the one before), each split into its name, its
// parameters and its value, the value's escapes undone (§3.3.11: \n \, \; \\).

export interface ContentLine {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Every content line, in order; lines that are not NAME[;PARAM=…]:VALUE are skipped. */
export function contentLines(text: string): ContentLine[] {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\n[ \t]/g, "").split("\n");
  const out: ContentLine[] = [];
  for (const line of lines) {
    const parsed = parseLine(line);
    if (parsed) out.push(parsed);
  }
  return out;
}

function parseLine(line: string): ContentLine | null {
  // The value starts at the first colon outside a quoted parameter value (§3.1: param-value may be quoted).
  let quoted = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ":" && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon <= 0) return null;
  const [name, ...params] = line.slice(0, colon).split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (!/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)?$/.test(name!)) return null;
  const record: Record<string, string> = {};
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq > 0) record[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, "");
    else record.TYPE = record.TYPE ? `${record.TYPE},${p}` : p; // vCard 2.1: bare types (TEL;CELL:…)
  }
  return { name: name!.replace(/^.*\./, "").toUpperCase(), params: record, value: line.slice(colon + 1) };
}

/** §3.3.11 TEXT: escaped newlines, commas, semicolons and backslashes. */
export function unescapeText(value: string): string {
  return value.replace(/\\([nN,;\\])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

/** A DATE or DATE-TIME value (§3.3.4, §3.3.5) as ISO 8601, with its zone (TZID, or UTC for Z). */
export function dateValue(value: string, tzid: string | undefined): string {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return value;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!m[4]) return `${date} (all day)`;
  const zone = m[7] ? " UTC" : tzid ? ` (${tzid})` : " (floating local time)";
  return `${date} ${m[4]}:${m[5]}:${m[6]}${zone}`;
}
