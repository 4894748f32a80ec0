// The content helpers a call reads with, and whose share it uses (./helper/pool.ts): HTML→text for
// get_email and get_attachment, PDF→text and documents→text (./documents/) for get_attachment.
// `owner` is the token the work is for (its id, as ToolContext.tokenId): helpers are handed out
// in turn per owner. The helper processes belong to one service: its composition root builds them
// (src/mail/connections.ts) and stops them.
import { DocumentReader } from "./documents/reader.ts";
import { HtmlConverter } from "./html-text/converter.ts";
import { PdfExtractor } from "./pdf-text/extract.ts";

/** One service's helper pools. */
export interface ContentHelpers {
  html: HtmlConverter;
  pdf: PdfExtractor;
  documents: DocumentReader;
}

export interface ContentReaders extends ContentHelpers {
  owner: string;
}

/** A service's helpers (none is started until a conversion needs one). */
export function contentHelpers(): ContentHelpers {
  return { html: new HtmlConverter(), pdf: new PdfExtractor(), documents: new DocumentReader() };
}

export function closeContentHelpers(helpers: ContentHelpers): void {
  helpers.html.close();
  helpers.pdf.close();
  helpers.documents.close();
}

/** `helpers` on `owner`'s share. */
export function contentReaders(owner: string, helpers: ContentHelpers): ContentReaders {
  return { owner, html: helpers.html, pdf: helpers.pdf, documents: helpers.documents };
}
