// Which parts of a message make its readable body, in order, as a careful mail client shows them.
// HTML stays HTML here: converting it is costly and runs off the event loop (../content/html-text/).
import { libmime } from "./libs.ts";
import { stripTags } from "../content/html-text/strip.ts";
import { formatAddress } from "../read/display-addresses.ts";
import { isMessageType, type MimePart, type ParsedMessage } from "./tree.ts";

/** An HTML segment may carry a note for body_note (why it was read rather than its text sibling). */
export type Segment = { kind: "text"; text: string } | { kind: "html"; html: string; note?: string };

/** The body of a message: its text parts, HTML parts (to convert), and attached messages' text. */
export function bodySegments(message: ParsedMessage): Segment[] {
  return render(message.root);
}

function render(part: MimePart): Segment[] {
  if (part.type === "multipart/alternative") return pickAlternative(part.children);
  // RFC 2387: the first part of multipart/related is the document, the rest are its resources.
  if (part.type === "multipart/related") return part.children[0] ? render(part.children[0]) : [];
  // mixed, digest, parallel, report, signed (the signature part is not text), unknown multiparts.
  if (part.type.startsWith("multipart/")) return part.children.flatMap(render);
  if (isMessageType(part.type)) return attachedMessage(part);
  if (part.disposition === "attachment") return [];
  if (part.type === "text/html") return [{ kind: "html", html: decodeText(part) }];
  // RFC 2046 §4.1.4: an unrecognised text subtype is read as text/plain. A delivery report's
  // status fields (RFC 3464) are text too, as mail clients show them.
  if (part.type.startsWith("text/") || part.type === "message/delivery-status") return [{ kind: "text", text: decodeText(part) }];
  return []; // images, PDFs, other binaries: listed as attachments, not read
}

/**
 * RFC 2046 §5.1.4: the alternatives come in increasing faithfulness. A model reads text best, so a
 * plain-text alternative wins; otherwise the last one that has anything to show.
 */
function pickAlternative(children: MimePart[]): Segment[] {
  const hasContent = (s: Segment[]) => s.some((seg) => (seg.kind === "text" ? seg.text : seg.html).trim());
  const rendered = children.map(render).filter(hasContent); // a blank text alternative is no alternative
  const text = rendered.find((s) => s.every((seg) => seg.kind === "text"));
  const richest = rendered.at(-1) ?? [];
  if (text && text !== richest && isStubOf(text, richest)) return richest.map((seg, i) => (seg.kind === "html" && i === 0 ? { ...seg, note: STUB_NOTE } : seg));
  return text ?? richest;
}

const STUB_NOTE = "The plain-text part of this message only pointed to a browser view of it; its HTML part was read instead.";

// A "view this email in your browser" text part: short, pointing to a web view or saying the
// reader needs HTML, while the HTML sibling says far more. Phrases in English, German, French,
// Spanish; or text that is little more than links.
const BROWSER_VIEW = new RegExp([
  String.raw`(view|read|see|open)[^.
]{0,40}(browser|online|web ?version|on the web)`,
  String.raw`(web|online|html)[ -]?version`, String.raw`html[- ](capable|compatible|enabled|viewer|e-?mail)`,
  String.raw`(does ?n[o']t|cannot|can[' ]?t|unable to)[^.
]{0,30}(display|show|read|support|view)[^.
]{0,30}html`,
  String.raw`im browser`, String.raw`dans (votre|le) navigateur`, String.raw`en (tu|el|su) navegador`,
].join("|"), "i");

/** Whether a text alternative is only a stub of its HTML sibling (see STUB_NOTE). */
export function isStubOf(text: Segment[], html: Segment[]): boolean {
  const plain = text.map((s) => (s.kind === "text" ? s.text : "")).join("\n").trim();
  if (plain.length > 600 || !html.some((s) => s.kind === "html")) return false;
  const htmlText = html.map((s) => (s.kind === "html" ? stripTags(s.html, 0, 4 * plain.length + 1000) : s.text)).join("\n");
  if (htmlText.length < Math.max(3 * plain.length, plain.length + 200)) return false;
  const words = plain.replace(/https?:\/\/\S+/g, "").replace(/[^\p{L}]+/gu, "");
  return BROWSER_VIEW.test(plain) || (/https?:\/\//.test(plain) && words.length < 40);
}

/**
 * An attached message (a forward, a digest entry, or a message whose whole body is one): its
 * sender, date, subject and recipients, then its own body, as mail clients show it inline.
 * It is listed as an attachment too (../read/attachment-list.ts); its raw MIME headers never reach the body.
 */
function attachedMessage(part: MimePart): Segment[] {
  if (!part.message) return [];
  const h = part.message.headers;
  const who = (key: string) => h.addresses(key).map(formatAddress).join(", ");
  const lines = [
    `---------- Attached message (part ${part.part}) ----------`,
    ...[["From", who("from")], ["Date", h.text("date")], ["Subject", h.text("subject")], ["To", who("to")], ["Cc", who("cc")]]
      .filter(([, v]) => v)
      .map(([k, v]) => `${k}: ${v}`),
    "",
  ];
  return [{ kind: "text", text: lines.join("\n") }, ...bodySegments(part.message)];
}

/** A text part's content as a string: its charset (WHATWG labels; unknown ones read as UTF-8), then format=flowed (RFC 3676). */
export function decodeText(part: MimePart): string {
  let text: string;
  try {
    text = new TextDecoder(part.charset ?? "utf-8").decode(part.content);
  } catch {
    text = part.content.toString("utf8");
  }
  // Line ends are normalised later, on the part that is shown (../content/sanitize.ts cleanText).
  return part.flowed ? libmime().decodeFlowed(text, part.delSp) : text;
}
