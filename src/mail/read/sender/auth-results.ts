// Authentication-Results (RFC 8601 §2.2): `authserv-id [version] ; method=result prop=value … ; …`.
// Only what a sender check needs: the authserv-id, each method's result and its properties
// (header.d, header.from, smtp.mailfrom). Comments (RFC 5322 CFWS) are dropped first; a header
// without an authserv-id (Microsoft writes `spf=pass …` straight away) has the id "".

export type Verdict = "pass" | "fail" | "softfail" | "neutral" | "none" | "temperror" | "permerror";
const VERDICTS = new Set<string>(["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"]);

export interface MethodResult {
  method: string;
  result: Verdict | null;
  /** Lower-case `ptype.property` → value, e.g. "header.d" → "example.com". */
  props: Record<string, string>;
}

export interface AuthResults {
  authservId: string;
  results: MethodResult[];
}

/** RFC 5322 comments removed (nested, with quoted-pairs); quoted strings kept as they are. */
export function stripComments(value: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && (depth > 0 || quoted)) {
      if (depth === 0) out += c + (value[i + 1] ?? "");
      i++;
    } else if (quoted) {
      out += c;
      if (c === '"') quoted = false;
    } else if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (depth === 0) {
      if (c === '"') quoted = true;
      out += c;
    }
  }
  return out;
}

const unquote = (v: string) => v.replace(/^"(.*)"$/, "$1");

function methodResult(segment: string): MethodResult | null {
  const tokens = segment.trim().split(/\s+/).filter(Boolean);
  const first = /^([a-z0-9_-]+)(?:\/\d+)?\s*=\s*(\S+)$/i.exec(tokens.shift() ?? "");
  if (!first) return null;
  const result = first[2]!.toLowerCase();
  const props: Record<string, string> = {};
  for (const t of tokens) {
    const m = /^([a-z0-9_-]+\.[a-z0-9_.-]+)=(.+)$/i.exec(t);
    if (m) props[m[1]!.toLowerCase()] = unquote(m[2]!);
  }
  return { method: first[1]!.toLowerCase(), result: VERDICTS.has(result) ? (result as Verdict) : null, props };
}

/** One header's value parsed; null when it is not an Authentication-Results value at all. */
export function parseAuthResults(value: string): AuthResults | null {
  const parts = stripComments(value).split(";");
  const head = parts[0]!.trim();
  // Microsoft's form has no authserv-id: the first part already is `method=result`.
  const idless = /^[a-z0-9_-]+(?:\/\d+)?\s*=/i.test(head);
  const authservId = idless ? "" : (head.split(/\s+/)[0] ?? "").toLowerCase();
  if (!idless && !authservId) return null;
  const segments = idless ? parts : parts.slice(1);
  const results = segments.map(methodResult).filter((r): r is MethodResult => r !== null);
  return { authservId, results };
}
