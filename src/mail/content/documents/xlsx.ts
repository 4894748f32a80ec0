// An Excel workbook (.xlsx, .xlsm; ECMA-376 Part 1 §18, SpreadsheetML) as one table per sheet
// (./sheet-table.ts), in the workbook's order, hidden sheets marked. Cells show their value: shared
// and inline strings, numbers (dates as ISO 8601: ./xlsx-dates.ts), booleans, errors; formulas'
// cached results, never the formula run (nothing is ever calculated or executed: macros in
// vbaProject.bin are not read). Sheets that do not fit the text wanted are named as left out.
import type { ZipPackage } from "./package.ts";
import { SHEET_BOUNDS, SheetTable } from "./sheet-table.ts";
import type { TextSink } from "./sink.ts";
import { dateStyles, serialDate } from "./xlsx-dates.ts";
import { DocumentRefused } from "./types.ts";

const WORKBOOK = "xl/workbook.xml";

interface Sheet { name: string; path: string | null; hidden: boolean }

export function readXlsx(pkg: ZipPackage, sink: TextSink): void {
  if (!pkg.has(WORKBOOK)) throw new DocumentRefused("it is a ZIP file but not an Excel workbook (it has no xl/workbook.xml)");
  const targets = pkg.relationships(WORKBOOK);
  const sheets: Sheet[] = [];
  let date1904 = false;
  pkg.xml(WORKBOOK, {
    open(name, a) {
      if (name === "workbookPr") date1904 = a.date1904 === "1" || a.date1904 === "true";
      if (name === "sheet") sheets.push({ name: a.name ?? "", path: targets.get(a["r:id"] ?? "") ?? null, hidden: (a.state ?? "visible") !== "visible" });
    },
  });
  const cells: CellContext = { shared: sharedStrings(pkg), dates: dateStyles(pkg), date1904 };
  sheets.forEach((sheet, i) => {
    const title = `Sheet ${i + 1}: ${sheet.name}${sheet.hidden ? " (hidden)" : ""}`;
    if (sink.full) return sink.omit(`${title}: not shown (the text wanted was already full)`);
    if (!sheet.path || !pkg.has(sheet.path)) return sink.omit(`${title}: not a worksheet (a chart or a missing part)`);
    const table = new SheetTable(sink, title);
    readSheet(pkg, sheet.path, table, cells);
    table.end();
  });
}

interface CellContext { shared: string[]; dates: Set<number>; date1904: boolean }

/** Streams a worksheet's sheetData (§18.3.1.80) row by row into `table`. */
function readSheet(pkg: ZipPackage, path: string, table: SheetTable, ctx: CellContext): void {
  let row: Array<string | undefined> = [];
  let rowNumber = 0;
  let cell: { column: number; type: string; style: number; value: string } | null = null;
  let column = -1;
  let reading: "v" | "t" | null = null;
  let phonetic = false;
  pkg.xml(path, {
    open(name, a) {
      if (name === "row") (row = [], (rowNumber = Number(a.r) || rowNumber + 1), (column = -1));
      else if (name === "c") {
        column = a.r ? columnIndex(a.r) : column + 1;
        cell = { column, type: a.t ?? "n", style: Number(a.s ?? 0), value: "" };
      } else if (name === "v") reading = "v";
      else if (name === "t" && cell?.type === "inlineStr") reading = "t";
      else if (name === "rPh") phonetic = true;
    },
    text(t) {
      if (cell && reading && !phonetic) cell.value += t;
    },
    close(name) {
      if (name === "v" || name === "t") reading = null;
      else if (name === "rPh") phonetic = false;
      else if (name === "c" && cell) {
        if (cell.column < SHEET_BOUNDS.columns) row[cell.column] = cellValue(cell, ctx);
        else if (cell.value) row[cell.column] = cell.value; // only its place counts: the table says it was left out
        cell = null;
      } else if (name === "row") table.row(rowNumber, row);
    },
  });
}

function cellValue(cell: { type: string; style: number; value: string }, ctx: CellContext): string {
  const v = cell.value;
  if (cell.type === "s") return ctx.shared[Number(v)] ?? "";
  if (cell.type === "b") return v === "1" ? "TRUE" : "FALSE";
  if (cell.type !== "n" || v === "") return v;
  const n = Number(v);
  if (ctx.dates.has(cell.style)) return serialDate(n, ctx.date1904);
  return Number.isFinite(n) ? String(Number(n.toPrecision(15))) : v;
}

/** "BC12" → 54 (0-based column of a cell reference). */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** xl/sharedStrings.xml (§18.4.9): each si's text runs joined, phonetic readings (rPh) left out. */
function sharedStrings(pkg: ZipPackage): string[] {
  const strings: string[] = [];
  let current: string[] | null = null;
  let inText = false;
  let phonetic = false;
  pkg.xml("xl/sharedStrings.xml", {
    open(name) {
      if (name === "si") current = [];
      else if (name === "t") inText = true;
      else if (name === "rPh") phonetic = true;
    },
    text(t) {
      if (current && inText && !phonetic) current.push(t);
    },
    close(name) {
      if (name === "si" && current) (strings.push(current.join("")), (current = null));
      else if (name === "t") inText = false;
      else if (name === "rPh") phonetic = false;
    },
  });
  return strings;
}
