// HTML body → text (or Markdown) for get_email, in bounded time and work whatever a sender mails.
// - The first HTML_CONVERT_BOUND characters of HTML go to the real converter, whatever the call
//   asks for, so that the text is the same for every offset and max_chars and the pieces of a long
//   message fit together exactly (get_email's offset). Real newsletters are far shorter (Gmail
//   clips mail over ~100 KB). Past the bound the rest is read by the cheap tag stripper, which
//   stops as soon as it has enough for the characters asked for (`need`).
// - The converter runs in a helper process with a budget of work time and a memory ceiling
//   (converter.ts). Overrun, a document it cannot parse (24,000 nested tags) or one that needs too
//   much memory: the whole document is tag-stripped instead, and a note says so.
import type { ContentReaders } from "../readers.ts";
import type { HtmlFormat } from "./converter.ts";
import { stripTags } from "./strip.ts";

export const HTML_CONVERT_BOUND = 256 * 1024;

export interface HtmlText {
  text: string;
  /** Why the text is a simplified rendering, for the caller to pass on; null when it is not. */
  note: string | null;
}

/** `need`: how many characters of text the caller can show at most (offset + max_chars). */
export async function htmlToText(
  html: string, need: number, readers: Pick<ContentReaders, "owner" | "html">, format: HtmlFormat = "text",
): Promise<HtmlText> {
  const cut = html.length <= HTML_CONVERT_BOUND ? html.length : cutPoint(html, HTML_CONVERT_BOUND);
  // Twice what is needed of stripped text, so that the window still sees there is more (truncated).
  const want = 2 * need + 1;
  const result = await readers.html.convert(cut < html.length ? html.slice(0, cut) : html, readers.owner, undefined, format);
  if (!result.ok) {
    const why = FAILED[result.reason];
    return { text: stripTags(html, 0, want), note: `The HTML body ${why}; it is shown with its tags stripped (layout and link targets are lost).` };
  }
  const text = result.text.trim();
  if (cut === html.length || text.length >= want) return { text, note: null };
  const rest = stripTags(html, cut, want - text.length);
  if (!rest) return { text, note: null };
  return {
    text: text ? `${text}\n\n${rest}` : rest,
    note: `The HTML body is long: its first ${Math.round(cut / 1024)} KB were converted to text, the rest is shown with its tags stripped.`,
  };
}

const FAILED = {
  timeout: "was too complex to convert to text in time",
  memory: "needed more memory to convert than one document may use",
  busy: "could not be converted now (the converter was busy with other mail)",
  error: "could not be converted to text",
} as const;

/** Where to split: before the last tag that starts within the bound, so no tag is cut in two. */
function cutPoint(html: string, bound: number): number {
  const lt = html.lastIndexOf("<", bound);
  return lt > bound / 2 ? lt : bound;
}
