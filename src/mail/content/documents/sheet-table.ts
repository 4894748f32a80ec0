// One sheet (or a CSV file) as a table of text: a header of column letters, then one row per
// non-empty row with its row number, "| 3 | Tea | 4.50 |". Bounded: at most SHEET_BOUNDS.columns
// columns and .rows rows, each cell cut at .cellChars, and no more rows than the text still wanted
// holds; what is left out is counted and said, in the text and in the sink's `omitted`.
import { cellText } from "./flow.ts";
import type { TextSink } from "./sink.ts";

export const SHEET_BOUNDS = { columns: 50, rows: 10_000, cellChars: 500 };

/** Column letters as spreadsheets name them: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export class SheetTable {
  private readonly lines: string[] = [];
  private chars = 0;
  private width = 0;
  private widest = 0;
  private leftOut = 0;

  constructor(private readonly sink: TextSink, private readonly title: string) {}

  /** A row by its number, cells by column index (0 = A), holes and trailing empties allowed. */
  row(number: number, cells: Array<string | undefined>): void {
    let last = cells.length - 1;
    while (last >= 0 && !cells[last]) last--;
    if (last < 0) return;
    this.widest = Math.max(this.widest, last + 1);
    if (this.lines.length >= SHEET_BOUNDS.rows || this.chars >= this.sink.room) return void this.leftOut++;
    const shown = Math.min(last + 1, SHEET_BOUNDS.columns);
    this.width = Math.max(this.width, shown);
    const texts = Array.from({ length: shown }, (_, i) => cut(cellText(cells[i] ?? "")));
    const line = `| ${number} | ${texts.join(" | ")} |`;
    this.lines.push(line);
    this.chars += line.length + 1;
  }

  /** Writes the table and says what was left out. */
  end(): void {
    this.sink.line(`\n## ${this.title}`);
    if (!this.lines.length && !this.leftOut) return this.sink.line("(empty)");
    const letters = Array.from({ length: this.width }, (_, i) => columnName(i));
    this.sink.line(`| row | ${letters.join(" | ")} |`);
    this.sink.line(`|---|${letters.map(() => "---|").join("")}`);
    for (const line of this.lines) this.sink.line(line);
    if (this.leftOut) this.said(`${this.title}: ${this.leftOut} more non-empty row(s) not shown`);
    if (this.widest > SHEET_BOUNDS.columns) {
      this.said(`${this.title}: columns ${columnName(SHEET_BOUNDS.columns)} to ${columnName(this.widest - 1)} not shown (${SHEET_BOUNDS.columns} columns at most)`);
    }
  }

  private said(what: string): void {
    this.sink.omit(what);
    this.sink.line(`(${what}.)`);
  }
}

function cut(text: string): string {
  return text.length > SHEET_BOUNDS.cellChars ? `${text.slice(0, SHEET_BOUNDS.cellChars)}…` : text;
}
