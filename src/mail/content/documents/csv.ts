// A CSV or TSV file (RFC 4180; the separator ";" or tab when that is what the first line uses,
// as spreadsheets in many locales write) as one table (./sheet-table.ts), decoded with the part's
// charset (UTF-8 when it has none, a BOM dropped).
import { SheetTable } from "./sheet-table.ts";
import type { TextSink } from "./sink.ts";
import { decodeText } from "./text-decode.ts";

export function readCsv(bytes: Uint8Array, charset: string | null, sink: TextSink): void {
  const text = decodeText(bytes, charset);
  const separator = separatorOf(text);
  const table = new SheetTable(sink, "Table");
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let number = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') (field += '"', i++);
      else quoted = false;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) (row.push(field), (field = ""));
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      table.row(number++, row);
      (row = []), (field = "");
    } else field += c;
  }
  if (field || row.length) (row.push(field), table.row(number, row));
  table.end();
}

/** The separator the first line uses most, outside quotes: comma, semicolon or tab. */
function separatorOf(text: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && c in counts) counts[c]!++;
  }
  const [best, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return n ? best : ",";
}
