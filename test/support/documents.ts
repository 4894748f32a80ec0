// Real documents of each format get_attachment reads, made at test time: OOXML and ODF packages
// zipped by fflate (a dev dependency) around XML written here as the office suites write it (namespaces, relationships,
// shared strings), RTF, CSV, iCalendar and vCard as text; and zip bombs.
import { strToU8, zipSync, type Zippable } from "fflate";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const zip = (files: Record<string, string | Uint8Array>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? strToU8(v) : v])) as Zippable));

const rels = (items: Array<[string, string, string]>) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join("")}</Relationships>`;

const types = (main: string) => `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="${main}" ContentType="application/xml"/></Types>`;

/** A Word document: a localized heading style ("berschrift1" named "heading 1"), a list, a table, a text box with its Fallback copy, tracked deletion. */
export function docx(): Buffer {
  const p = (text: string, props = "") => `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ""}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const body = [
    p("Quarterly report", '<w:pStyle w:val="Title"/>'),
    p("Summary", '<w:pStyle w:val="berschrift1"/>'),
    `<w:p><w:r><w:t>Revenue grew &amp; costs fell.</w:t></w:r><w:r><w:tab/><w:t>Tabbed</w:t></w:r><w:del><w:r><w:delText>DELETED TEXT</w:delText></w:r></w:del></w:p>`,
    p("First point", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'),
    p("Sub point", '<w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr>'),
    `<w:tbl><w:tr><w:tc>${p("Item")}</w:tc><w:tc>${p("Cost")}</w:tc></w:tr><w:tr><w:tc>${p("Tea")}</w:tc><w:tc>${p("3 | 4")}</w:tc></w:tr></w:tbl>`,
    `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>${p("Boxed note")}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>${p("Boxed note")}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
    p("Details", '<w:pStyle w:val="Heading2"/>'),
    p("The end."),
  ].join("");
  const styles = `${XML}<w:styles ${W}><w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>`;
  return zip({
    "[Content_Types].xml": types("/word/document.xml"),
    "_rels/.rels": rels([["rId1", "officeDocument", "word/document.xml"]]),
    "word/document.xml": `${XML}<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    "word/styles.xml": styles,
  });
}

/** A workbook of `sheets`, each rows of cells (strings shared, numbers as numbers, `Date` as a date-styled serial). */
export function xlsx(sheets: Record<string, Array<Array<string | number | Date | boolean>>>, extra: { hidden?: string } = {}): Buffer {
  return zip(xlsxFiles(sheets, extra));
}

function xlsxFiles(sheets: Record<string, Array<Array<string | number | Date | boolean>>>, extra: { hidden?: string } = {}): Record<string, string | Uint8Array> {
  const shared: string[] = [];
  const index = new Map<string, number>();
  const sharedIndex = (s: string) => index.get(s) ?? (index.set(s, shared.push(s) - 1), shared.length - 1);
  const col = (i: number) => (i >= 26 ? String.fromCharCode(64 + Math.floor(i / 26)) : "") + String.fromCharCode(65 + (i % 26));
  const cell = (v: string | number | Date | boolean, ref: string) => {
    if (typeof v === "string") return `<c r="${ref}" t="s"><v>${sharedIndex(v)}</v></c>`;
    if (typeof v === "boolean") return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
    if (v instanceof Date) return `<c r="${ref}" s="1"><v>${v.getTime() / 86_400_000 + 25569}</v></c>`;
    return `<c r="${ref}"><v>${v}</v></c>`;
  };
  const files: Record<string, string> = {};
  const names = Object.keys(sheets);
  names.forEach((name, i) => {
    const rows = sheets[name]!.map((row, r) => `<row r="${r + 1}">${row.map((v, c) => cell(v, `${col(c)}${r + 1}`)).join("")}</row>`).join("");
    files[`xl/worksheets/sheet${i + 1}.xml`] = `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  });
  const list = names.map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"${n === extra.hidden ? ' state="hidden"' : ""}/>`).join("");
  return {
    ...files,
    "[Content_Types].xml": types("/xl/workbook.xml"),
    "_rels/.rels": rels([["rId1", "officeDocument", "xl/workbook.xml"]]),
    "xl/workbook.xml": `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${list}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": rels(names.map((_, i) => [`rId${i + 1}`, "worksheet", `worksheets/sheet${i + 1}.xml`])),
    "xl/sharedStrings.xml": `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}">${shared.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join("")}</sst>`,
    "xl/styles.xml": `${XML}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`,
  };
}

/** A presentation: slides of paragraphs (a nested array is a second-level bullet list), the 2nd listed first in the files but second in order. */
export function pptx(slides: Array<Array<string | string[]>>): Buffer {
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const para = (t: string, lvl = 0) => `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ""}<a:r><a:t>${esc(t)}</a:t></a:r></a:p>`;
  const files: Record<string, string> = {};
  slides.forEach((paras, i) => {
    const body = paras.map((x) => (Array.isArray(x) ? x.map((t) => para(t, 1)).join("") : para(x))).join("");
    files[`ppt/slides/slide${i + 1}.xml`] = `${XML}<p:sld ${A}><p:cSld><p:spTree><p:sp><p:txBody>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  // The slide order is the presentation's sldIdLst, not the file names: list them in reverse ids to prove it.
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${slides.length - i}"/>`).join("");
  return zip({
    ...files,
    "[Content_Types].xml": types("/ppt/presentation.xml"),
    "ppt/presentation.xml": `${XML}<p:presentation ${A} xmlns:r="${REL}"><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": rels(slides.map((_, i) => [`rId${slides.length - i}`, "slide", `slides/slide${i + 1}.xml`])),
  });
}

const ODF_NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

function odf(mimetype: string, body: string): Buffer {
  return zip({
    mimetype,
    "META-INF/manifest.xml": `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`,
    "content.xml": `${XML}<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
  });
}

export const odt = () => odf("application/vnd.oasis.opendocument.text", '<office:text>' +
  '<text:h text:outline-level="1">Minutes</text:h><text:p>Present:<text:s text:c="2"/>Ann, Bob<text:note><text:note-body><text:p>FOOTNOTE</text:p></text:note-body></text:note></text:p>' +
  '<text:list><text:list-item><text:p>Budget</text:p><text:list><text:list-item><text:p>Travel</text:p></text:list-item></text:list></text:list-item></text:list>' +
  '<text:h text:outline-level="2">Decisions</text:h><table:table><table:table-row><table:table-cell><text:p>Who</text:p></table:table-cell><table:table-cell><text:p>What</text:p></table:table-cell></table:table-row></table:table>' +
  "</office:text>");

export const ods = () => odf("application/vnd.oasis.opendocument.spreadsheet", '<office:spreadsheet><table:table table:name="Costs">' +
  '<table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell></table:table-row>' +
  '<table:table-row table:number-rows-repeated="3"><table:table-cell table:number-columns-repeated="2"/></table:table-row>' +
  '<table:table-row><table:table-cell><text:p>Tea</text:p></table:table-cell><table:table-cell table:number-columns-repeated="2"><text:p>3</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16000"/></table:table-row>' +
  '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>' +
  "</table:table></office:spreadsheet>");

export const odp = () => odf("application/vnd.oasis.opendocument.presentation", "<office:presentation>" +
  '<draw:page draw:name="Welcome"><draw:frame><draw:text-box><text:p>Hello all</text:p></draw:text-box></draw:frame><presentation:notes><text:p>SPEAKER NOTE</text:p></presentation:notes></draw:page>' +
  '<draw:page draw:name="Plan"><draw:frame><draw:text-box><text:list><text:list-item><text:p>Ship it</text:p></text:list-item></text:list></draw:text-box></draw:frame></draw:page>' +
  "</office:presentation>");

export const rtf = () => Buffer.from(
  "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}}{\\colortbl;\\red0\\green0\\blue0;}{\\*\\generator Writer;}{\\info{\\title SECRET TITLE}}" +
    "\\pard\\b Offer\\b0\\par Price: 12 \\'80, valid \\u8594?\\~now.\\par {\\pict\\pngblip 89504e47}Line\\line two\\par}", "latin1");

export const CSV = "name;amount;note\r\nTea;3;\"with ; semicolon\"\r\nCake;4,50;\"two\r\nlines\"\r\n";

export const ICS = [
  "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//EN", "METHOD:REQUEST",
  "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "END:STANDARD", "END:VTIMEZONE",
  "BEGIN:VEVENT", "UID:abc@example.com", "SUMMARY:Budget review\\, Q3", "DTSTART;TZID=Europe/Berlin:20260310T140000",
  "DTEND;TZID=Europe/Berlin:20260310T150000", "RRULE:FREQ=WEEKLY;COUNT=4", "LOCATION:Room 1",
  'ORGANIZER;CN="Ann Lee":mailto:ann@example.com', "ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT:mailto:bob@example.net",
  "DESCRIPTION:Bring the numbers.\\nAnd tea.", " Folded on.", "X-MS-OLK-SENDER:x", "END:VEVENT", "END:VCALENDAR", "",
].join("\r\n");

export const VCF = [
  "BEGIN:VCARD", "VERSION:3.0", "FN:Ann Lee", "N:Lee;Ann;;;", "ORG:Example Ltd", "TEL;TYPE=CELL:+49 170 000000",
  "EMAIL;TYPE=WORK:ann@example.com", "ADR;TYPE=WORK:;;Main St 1;Berlin;;10115;Germany", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==", "END:VCARD", "",
].join("\r\n");

/**
 * A workbook whose sheet is `real` zero bytes, deflated ~1000 times (1 MB → ~1 KB), and whose
 * central directory says the sheet expands to `declared` bytes: its real size (a ratio bomb), past
 * 1 GB, or less than it really does (a liar, caught only while inflating). `bare`: the sheet alone.
 */
export function zipBomb(declared: number, real = 1024 * 1024, bare = false): Buffer {
  const files = { ...(bare ? {} : xlsxFiles({ Data: [["x"]] })), "xl/worksheets/sheet1.xml": new Uint8Array(real) };
  const honest = Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? strToU8(v) : v])), { level: 9 }));
  return patchSizes(honest, "xl/worksheets/sheet1.xml", declared);
}

/** Rewrites the uncompressed size of `name` in its local header and central directory entry. */
function patchSizes(zipBytes: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zipBytes);
  for (const [sig, nameAt, sizeAt] of [[0x04034b50, 30, 22], [0x02014b50, 46, 24]] as const) {
    for (let at = 0; at < out.length - 4; at++) {
      if (out.readUInt32LE(at) === sig && out.toString("latin1", at + nameAt, at + nameAt + name.length) === name) out.writeUInt32LE(size, at + sizeAt);
    }
  }
  return out;
}
