// An OpenDocument spreadsheet (.ods; OASIS ODF 1.3 Part 3 §9.1) as one table per sheet
// (./sheet-table.ts), from content.xml. Cells show their displayed text (text:p). Rows and cells
// may say they repeat (table:number-rows-repeated, table:number-columns-repeated): empty ones only
// move the position, so a sheet padded to 1,048,576 rows costs nothing; a repeated value is
// written out up to the table's bounds.
import type { ZipPackage } from "./package.ts";
import { SHEET_BOUNDS, SheetTable } from "./sheet-table.ts";
import type { TextSink } from "./sink.ts";
import { DocumentRefused } from "./types.ts";

const SKIPPED = new Set(["annotation", "note"]);

export function readOds(pkg: ZipPackage, sink: TextSink): void {
  let table: SheetTable | null = null;
  let sheets = 0;
  let row: Array<string | undefined> = [];
  let rowNumber = 0;
  let rowRepeat = 1;
  let column = 0;
  let cell: { repeat: number; paragraphs: string[] } | null = null;
  let skip = 0;
  const found = pkg.xml("content.xml", {
    open(name, a) {
      if (SKIPPED.has(name)) skip++;
      if (skip) return;
      if (name === "table") table = new SheetTable(sink, `Sheet ${++sheets}: ${a["table:name"] ?? ""}`);
      else if (name === "table-row") (row = [], (column = 0), (rowRepeat = repeat(a["table:number-rows-repeated"])));
      else if (name === "table-cell" || name === "covered-table-cell") cell = { repeat: repeat(a["table:number-columns-repeated"]), paragraphs: [] };
      else if (name === "p" && cell) cell.paragraphs.push("");
      else if (name === "s" && cell?.paragraphs.length) cell.paragraphs[cell.paragraphs.length - 1] += " ";
    },
    text(t) {
      if (!skip && cell?.paragraphs.length) cell.paragraphs[cell.paragraphs.length - 1] += t;
    },
    close(name) {
      if (SKIPPED.has(name)) return void skip--;
      if (skip) return;
      if ((name === "table-cell" || name === "covered-table-cell") && cell) {
        const text = cell.paragraphs.join(" ").trim();
        const copies = text ? Math.min(cell.repeat, Math.max(1, SHEET_BOUNDS.columns + 1 - column)) : 0;
        for (let i = 0; i < copies; i++) row[column + i] = text;
        column += cell.repeat;
        cell = null;
      } else if (name === "table-row" && table) {
        const copies = row.length ? Math.min(rowRepeat, SHEET_BOUNDS.rows + 1) : 0;
        for (let i = 0; i < copies; i++) table.row(rowNumber + 1 + i, row);
        rowNumber += rowRepeat;
      } else if (name === "table" && table) (table.end(), (table = null), (rowNumber = 0));
    },
  });
  if (!found) throw new DocumentRefused("it is a ZIP file but not an OpenDocument file (it has no content.xml)");
}

/** A repeat count as written, at least 1; absurd values only move the position further. */
function repeat(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1 << 24) : 1;
}
