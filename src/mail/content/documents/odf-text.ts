// An OpenDocument text or presentation (.odt, .odp; OASIS ODF 1.3 Part 3) as text, from its
// content.xml: headings ("#" by text:outline-level), list items ("- " by nesting), paragraphs,
// tables as rows, and for a presentation each draw:page under "## Slide N". Footnotes, comments,
// speaker notes and tracked deletions are not read; macros (Basic/) never are.
import { FlowWriter, type ParagraphStyle } from "./flow.ts";
import type { ZipPackage } from "./package.ts";
import type { TextSink } from "./sink.ts";
import { DocumentRefused } from "./types.ts";

/** Elements whose text is not part of the document's running text. */
const SKIPPED = new Set(["note", "annotation", "notes", "tracked-changes", "sequence-decls", "variable-decls", "user-field-decls"]);

export function readOdfText(pkg: ZipPackage, sink: TextSink): void {
  const flow = new FlowWriter(sink);
  const open: ParagraphStyle[] = [];
  let lists = 0;
  let skip = 0;
  let slides = 0;
  const found = pkg.xml("content.xml", {
    open(name, a) {
      if (SKIPPED.has(name)) skip++;
      if (skip) return;
      if (name === "page") sink.line(`\n## Slide ${++slides}${a["draw:name"] ? `: ${a["draw:name"]}` : ""}`);
      else if (name === "h" || name === "p") {
        flow.startParagraph();
        open.push({ heading: name === "h" ? Number(a["text:outline-level"]) || 1 : 0, list: lists ? lists - 1 : null });
      } else if (name === "list") lists++;
      else if (name === "s") flow.text(" ".repeat(Math.min(Number(a["text:c"]) || 1, 100)));
      else if (name === "tab") flow.text("\t");
      else if (name === "line-break") flow.text("\n");
      else if (name === "table") flow.startTable();
      else if (name === "table-cell") flow.startCell();
    },
    text(t) {
      if (!skip) flow.text(t);
    },
    close(name) {
      if (SKIPPED.has(name)) return void skip--;
      if (skip) return;
      if (name === "h" || name === "p") flow.endParagraph(open.pop());
      else if (name === "list") lists--;
      else if (name === "table-cell") flow.endCell();
      else if (name === "table-row") flow.endRow();
      else if (name === "table") flow.endTable();
    },
  });
  if (!found) throw new DocumentRefused("it is a ZIP file but not an OpenDocument file (it has no content.xml)");
}
