// The content helpers a call reads with, and whose share it uses (../helper/pool.ts): HTML→text for
// get_email and get_attachment, PDF→text for get_attachment. `owner` is the token the work is for
// (its id, as ToolContext.tokenId): helpers are handed out in turn per owner.
import { sharedConverter, type HtmlConverter } from "./html-text/converter.ts";
import { sharedPdfExtractor, type PdfExtractor } from "./pdf-text/extract.ts";

export interface ContentReaders {
  owner: string;
  html: HtmlConverter;
  pdf: PdfExtractor;
}

/** The service's shared helpers, on `owner`'s share; tests pass their own. */
export function contentReaders(owner: string, own: Partial<Omit<ContentReaders, "owner">> = {}): ContentReaders {
  return { owner, html: own.html ?? sharedConverter(), pdf: own.pdf ?? sharedPdfExtractor() };
}
