// A minimal, valid PDF 1.4 written by hand (ISO 32000-1 §7.5: header, objects, xref table with
// exact byte offsets, trailer): one page per entry of `pages`, each line set in Helvetica with
// WinAnsiEncoding, so any PDF text extractor must give the lines back. Lines are ASCII.
// `padding` adds an unreferenced stream object of that many bytes, for a large but quick PDF.
export function tinyPdf(pages: string[][], padding = 0): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body); // returns the object number (index + 1)
  add("<< /Type /Catalog /Pages 2 0 R >>");
  add(""); // pages tree, filled in below
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td", ...lines.map((l, i) => `${i ? "T* " : ""}(${escape(l)}) Tj`), "ET"].join("\n");
    const content = add(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
    const page = add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`);
    kids.push(page);
  }
  if (padding > 0) add(`<< /Length ${padding} >>\nstream\n${"%".repeat(padding)}\nendstream`);
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

function escape(line: string): string {
  if (!/^[\x20-\x7e]*$/.test(line)) throw new Error("tinyPdf: ASCII lines only");
  return line.replace(/[\\()]/g, (c) => `\\${c}`);
}
