// A Word document (.docx, .docm; ECMA-376 Part 1 §17, WordprocessingML) as text: the body's
// paragraphs with headings ("#") and list items ("- ") kept, tables as rows. Headings and lists
// come from the paragraph's own properties or its style (word/styles.xml), so a document whose
// styles are named in another language still has its headings. Only w:t text is read: deleted
// text (w:delText), field codes (w:instrText) and the Fallback copy of a text box are not. Macros
// (vbaProject.bin) are never read, let alone run.
import { FlowWriter, type ParagraphStyle } from "./flow.ts";
import type { Attributes, ZipPackage } from "./package.ts";
import type { TextSink } from "./sink.ts";
import { DocumentRefused } from "./types.ts";

const BODY = "word/document.xml";

export function readDocx(pkg: ZipPackage, sink: TextSink): void {
  if (!pkg.has(BODY)) throw new DocumentRefused("it is a ZIP file but not a Word document (it has no word/document.xml)");
  const styles = paragraphStyles(pkg);
  const flow = new FlowWriter(sink);
  const open: ParagraphStyle[] = [];
  let inText = false;
  let runs = 0;
  let fallback = 0;
  pkg.xml(BODY, {
    open(name, a) {
      if (name === "Fallback") fallback++;
      if (fallback) return;
      if (name === "p") (flow.startParagraph(), open.push({ heading: 0, list: null }));
      else if (name === "pStyle" && open.length) Object.assign(open.at(-1)!, styles.get(a["w:val"] ?? "") ?? headingByName(a["w:val"]));
      else if (name === "outlineLvl" && open.length) open.at(-1)!.heading = outline(a);
      else if (name === "ilvl" && open.length) open.at(-1)!.list = Number(a["w:val"]) || 0;
      else if (name === "numId" && open.length) open.at(-1)!.list = a["w:val"] === "0" ? null : (open.at(-1)!.list ?? 0);
      else if (name === "r") runs++;
      else if (name === "t") inText = true;
      else if (runs && (name === "tab" || name === "ptab")) flow.text("\t");
      else if (runs && (name === "br" || name === "cr")) flow.text("\n");
      else if (name === "noBreakHyphen") flow.text("-");
      else table(flow, name, true);
    },
    text(t) {
      if (inText && !fallback) flow.text(t);
    },
    close(name) {
      if (name === "Fallback") fallback--;
      if (fallback) return;
      if (name === "p") flow.endParagraph(open.pop());
      else if (name === "r") runs--;
      else if (name === "t") inText = false;
      else table(flow, name, false);
    },
  });
}

/** w:tbl / w:tr / w:tc (ECMA-376 Part 1 §17.4). */
function table(flow: FlowWriter, name: string, opening: boolean): void {
  if (name === "tbl") opening ? flow.startTable() : flow.endTable();
  else if (name === "tr" && !opening) flow.endRow();
  else if (name === "tc") opening ? flow.startCell() : flow.endCell();
}

/** w:outlineLvl: 0-8 are heading levels 1-9, 9 is body text (§17.3.1.20). */
function outline(a: Attributes): number {
  const level = Number(a["w:val"]);
  return level >= 0 && level < 9 ? level + 1 : 0;
}

/** The built-in style ids Word writes in English ("Heading1", "Title"), when styles.xml is missing. */
function headingByName(id: string | undefined): Partial<ParagraphStyle> {
  const m = /^(?:heading\s?([1-9])|(title))$/i.exec(id ?? "");
  return m ? { heading: m[2] ? 1 : Number(m[1]) } : {};
}

/** Style id → heading level and list membership, from the style's name, outline level or numbering. */
function paragraphStyles(pkg: ZipPackage): Map<string, Partial<ParagraphStyle>> {
  const styles = new Map<string, Partial<ParagraphStyle>>();
  let current: Partial<ParagraphStyle> | null = null;
  pkg.xml("word/styles.xml", {
    open(name, a) {
      if (name === "style") {
        current = a["w:type"] === "paragraph" && a["w:styleId"] ? {} : null;
        if (current) styles.set(a["w:styleId"]!, current);
      } else if (!current) return;
      else if (name === "name") Object.assign(current, headingByName(a["w:val"]?.replace(/\s/g, "")));
      else if (name === "outlineLvl") current.heading = outline(a);
      else if (name === "numPr") current.list = 0;
    },
    close(name) {
      if (name === "style") current = null;
    },
  });
  return styles;
}
