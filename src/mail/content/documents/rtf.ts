// An RTF document (Microsoft RTF 1.9.1) as text: paragraphs and line breaks kept, table cells as
// " | ", characters from \'hh (in the document's \ansicpg code page) and \uN (with its \ucN
// fallback skipped). Destinations that are not running text (font and colour tables, style
// sheets, document info, pictures, embedded objects, field instructions, anything starred \*)
// are skipped. Nothing in the file is run: an embedded object is skipped, never opened.
import type { TextSink } from "./sink.ts";
import { DocumentRefused } from "./types.ts";

const SKIP = new Set([
  "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "fldinst", "listtable", "listoverridetable", "themedata",
  "colorschememapping", "datastore", "latentstyles", "xmlnstbl", "rsidtbl", "generator", "header", "footer", "headerl",
  "headerr", "headerf", "footerl", "footerr", "footerf", "revtbl", "filetbl", "nonshppict", "shp", "bkmkstart", "bkmkend",
]);
const BREAKS: Record<string, string> = { par: "\n", line: "\n", sect: "\n\n", page: "\n\n", row: "\n", tab: "\t", cell: " | ", emdash: "—", endash: "–", bullet: "•", lquote: "‘", rquote: "’", ldblquote: "“", rdblquote: "”", emspace: " ", enspace: " ", qmspace: " " };
const TOKEN = /\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|([^\\{}\r\n]+)|[\r\n]+/gy;

interface State { skip: boolean; uc: number }

export function readRtf(bytes: Uint8Array, sink: TextSink): void {
  const source = new TextDecoder("latin1").decode(bytes);
  if (!source.startsWith("{\\rtf")) throw new DocumentRefused("it is not an RTF document (it does not start with {\\rtf)");
  let decoder = codePage(1252);
  const stack: State[] = [];
  let state: State = { skip: false, uc: 1 };
  let pending: number[] = []; // \'hh bytes, decoded together (a double-byte code page needs pairs)
  let skipChars = 0;
  const flush = () => {
    if (pending.length) sink.add(decoder.decode(new Uint8Array(pending)));
    pending = [];
  };
  const emit = (text: string) => (flush(), state.skip || sink.add(text));
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(source); m && !sink.full; m = TOKEN.exec(source)) {
    const [, word, arg, hex, symbol, brace, text] = m;
    if (skipChars > 0 && (hex || text || symbol)) {
      if (text && text.length > skipChars) (emit(text.slice(skipChars)), (skipChars = 0));
      else skipChars -= text ? text.length : 1;
      continue;
    }
    if (brace === "{") (stack.push(state), (state = { ...state }));
    else if (brace === "}") (flush(), (state = stack.pop() ?? state));
    else if (text) emit(text);
    else if (hex) state.skip || pending.push(parseInt(hex, 16));
    else if (symbol === "*") state.skip = true;
    else if (symbol) emit(symbol === "~" ? " " : symbol === "_" ? "-" : /[\\{}]/.test(symbol) ? symbol : "");
    else if (word === "ansicpg") decoder = codePage(Number(arg));
    else if (word === "uc") state.uc = Math.max(0, Number(arg) || 0);
    else if (word === "u") (emit(String.fromCharCode((Number(arg) + 65536) % 65536)), (skipChars = state.uc));
    else if (word === "bin") TOKEN.lastIndex += Math.max(0, Number(arg) || 0);
    else if (SKIP.has(word!)) state.skip = true;
    else if (BREAKS[word!]) emit(BREAKS[word!]!);
  }
  flush();
}

function codePage(page: number): TextDecoder {
  try {
    return new TextDecoder(page === 65001 ? "utf-8" : `windows-${page}`);
  } catch {
    return new TextDecoder("windows-1252");
  }
}
