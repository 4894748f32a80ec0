// A PowerPoint presentation (.pptx, .pptm; ECMA-376 Part 1 §19, PresentationML) as text: each
// slide in the presentation's order under "## Slide N", its shapes' paragraphs as lines (bullets
// by their level), tables as rows; hidden slides marked. Speaker notes and macros are not read.
import { FlowWriter } from "./flow.ts";
import type { ZipPackage } from "./package.ts";
import type { TextSink } from "./sink.ts";
import { DocumentRefused } from "./types.ts";

const PRESENTATION = "ppt/presentation.xml";

export function readPptx(pkg: ZipPackage, sink: TextSink): void {
  if (!pkg.has(PRESENTATION)) throw new DocumentRefused("it is a ZIP file but not a PowerPoint presentation (it has no ppt/presentation.xml)");
  const targets = pkg.relationships(PRESENTATION);
  const slides: string[] = [];
  pkg.xml(PRESENTATION, {
    open(name, a) {
      const path = name === "sldId" ? targets.get(a["r:id"] ?? "") : undefined;
      if (path) slides.push(path);
    },
  });
  let left = 0;
  slides.forEach((path, i) => {
    if (sink.full) return void left++;
    readSlide(pkg, path, i + 1, sink);
  });
  if (left) sink.omit(`slides ${slides.length - left + 1} to ${slides.length}: not shown (the text wanted was already full)`);
}

/** One slide (p:sld, §19.3.1.38): a:p paragraphs (DrawingML §21.1.2.2.6) of its shapes and tables. */
function readSlide(pkg: ZipPackage, path: string, number: number, sink: TextSink): void {
  const flow = new FlowWriter(sink);
  const levels: number[] = [];
  let inText = false;
  let fallback = 0;
  pkg.xml(path, {
    open(name, a) {
      if (name === "sld") sink.line(`\n## Slide ${number}${a.show === "0" ? " (hidden)" : ""}`);
      if (name === "Fallback") fallback++;
      if (fallback) return;
      if (name === "p" && !flow.inParagraph) (flow.startParagraph(), levels.push(0));
      else if (name === "pPr" && levels.length) levels[levels.length - 1] = Number(a.lvl ?? 0) || 0;
      else if (name === "t") inText = true;
      else if (name === "br") flow.text("\n");
      else if (name === "tbl") flow.startTable();
      else if (name === "tc") flow.startCell();
    },
    text(t) {
      if (inText && !fallback) flow.text(t);
    },
    close(name) {
      if (name === "Fallback") fallback--;
      if (fallback) return;
      if (name === "p" && levels.length) endParagraph(flow, levels.pop()!);
      else if (name === "t") inText = false;
      else if (name === "tc") flow.endCell();
      else if (name === "tr") flow.endRow();
      else if (name === "tbl") flow.endTable();
    },
  });
}

/** A paragraph below the first level is a sub-bullet; the rest are plain lines. */
function endParagraph(flow: FlowWriter, level: number): void {
  flow.endParagraph({ heading: 0, list: level > 0 ? level - 1 : null });
}
