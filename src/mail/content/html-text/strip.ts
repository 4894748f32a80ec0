// The cheap way from HTML to text, for when the real converter is not worth it or fails: the part
// of a long document past the bound, and a document that overran its budget or could not be
// parsed. One linear pass (indexOf and sticky regexes only), stopping once `limit` characters
// are out, so it is safe on the event loop for any input.

// Elements whose content is never text for a reader.
const SKIPPED = new Set(["script", "style", "head", "title", "template", "noscript", "svg", "xml", "object"]);
// Elements that start a new line.
const BLOCKS = new Set(["p", "div", "br", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "section", "article", "header", "footer", "dd", "dt", "dl", "form", "center"]);
const CELLS = new Set(["td", "th"]);
const TAG_NAME = /<\/?([a-zA-Z][a-zA-Z0-9-]*)/y;

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", copy: "©", reg: "®", trade: "™", hellip: "…",
  mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", bull: "•", middot: "·", euro: "€", zwnj: "", zwj: "",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const cp = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : "";
  });
}

/**
 * The text of `html` from offset `from` on (what comes before only sets the state: inside a
 * <style>, say), at most about `limit` characters. Tags go; block elements become line breaks,
 * table cells a space; entities are decoded; whitespace is collapsed as a browser would.
 */
export function stripTags(html: string, from = 0, limit = Number.POSITIVE_INFINITY): string {
  const out: string[] = [];
  let produced = 0;
  const emit = (s: string) => {
    out.push(s);
    produced += s.length;
  };
  let i = 0;
  while (i < html.length && produced < limit) {
    const lt = html.indexOf("<", i);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > from) emit(decodeEntities(html.slice(Math.max(i, from), textEnd)).replace(/[ \t\r\n\f]+/g, " "));
    if (lt < 0) break;
    i = skipMarkup(html, lt, (sep) => lt >= from && emit(sep));
  }
  return tidy(out.join(""));
}

/** Past the markup that starts at `lt` (a tag, comment, or a skipped element with its content). */
function skipMarkup(html: string, lt: number, separator: (s: string) => void): number {
  if (html.startsWith("<!--", lt)) return endOf(html, "-->", lt + 4);
  const gt = html.indexOf(">", lt + 1);
  if (gt < 0) return html.length; // an unterminated tag swallows the rest, as in a browser
  TAG_NAME.lastIndex = lt;
  const m = TAG_NAME.exec(html);
  const name = m?.[1]?.toLowerCase() ?? "";
  const closing = html[lt + 1] === "/";
  if (!closing && SKIPPED.has(name) && html[gt - 1] !== "/") return endOf(html, new RegExp(`</${name}\\s*>`, "gi"), gt + 1);
  if (BLOCKS.has(name)) separator("\n");
  else if (CELLS.has(name) && !closing) separator(" ");
  return gt + 1;
}

function endOf(html: string, end: string | RegExp, from: number): number {
  if (typeof end === "string") {
    const at = html.indexOf(end, from);
    return at < 0 ? html.length : at + end.length;
  }
  end.lastIndex = from;
  const m = end.exec(html);
  return m ? m.index + m[0].length : html.length;
}

function tidy(text: string): string {
  return text.replace(/ {2,}/g, " ").replace(/ ?\n ?/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}
