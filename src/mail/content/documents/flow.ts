// Running text of a word-processing document or a slide, written to a TextSink: paragraphs as
// lines (a heading as "#"s, a list item as "- " indented by its level), tables as "| a | b |"
// rows. A paragraph inside a table cell joins that cell; a table inside a cell is flattened into it.
import type { TextSink } from "./sink.ts";

export interface ParagraphStyle {
  /** 1-9 for a heading, 0 for body text. */
  heading: number;
  /** Nesting level of a list item (0 = outermost), or null when not in a list. */
  list: number | null;
}

/** One cell's text stays readable in a row: newlines and pipes would break the row apart. */
export const cellText = (s: string) => s.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

export class FlowWriter {
  /** Open paragraphs, innermost last (a text box's paragraphs sit inside a paragraph of the page). */
  private readonly paragraphs: string[][] = [];
  /** Open tables, innermost last: the rows' cells so far, and the open cell's paragraphs. */
  private readonly tables: Array<{ cells: string[]; cell: string[] | null }> = [];

  constructor(private readonly sink: TextSink) {}

  startParagraph(): void {
    this.paragraphs.push([]);
  }

  text(s: string): void {
    this.paragraphs.at(-1)?.push(s);
  }

  get inParagraph(): boolean {
    return this.paragraphs.length > 0;
  }

  endParagraph(style: ParagraphStyle = { heading: 0, list: null }): void {
    const text = (this.paragraphs.pop() ?? []).join("").replace(/[ \t]+$/gm, "").trim();
    if (!text) return;
    const cell = this.tables.at(-1)?.cell;
    if (cell) return void cell.push(text);
    if (style.heading) this.sink.line(`\n${"#".repeat(Math.min(style.heading, 6))} ${text.replace(/\n/g, " ")}`);
    else if (style.list !== null) this.sink.line(`${"  ".repeat(Math.min(style.list, 8))}- ${text}`);
    else this.sink.line(text);
  }

  startTable(): void {
    if (!this.tables.length) this.sink.line("");
    this.tables.push({ cells: [], cell: null });
  }

  startCell(): void {
    const t = this.tables.at(-1);
    if (t) t.cell = [];
  }

  endCell(): void {
    const t = this.tables.at(-1);
    if (!t?.cell) return;
    t.cells.push(cellText(t.cell.join(" ")));
    t.cell = null;
  }

  endRow(): void {
    const t = this.tables.at(-1);
    if (!t) return;
    const row = t.cells;
    t.cells = [];
    if (!row.some(Boolean)) return;
    const line = `| ${row.join(" | ")} |`;
    const outer = this.tables.at(-2)?.cell;
    if (outer) outer.push(line);
    else this.sink.line(line);
  }

  endTable(): void {
    this.tables.pop();
    if (!this.tables.length) this.sink.line("");
  }
}
