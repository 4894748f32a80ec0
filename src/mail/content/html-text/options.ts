// How HTML becomes text for a model (html-to-text 10). Differences from its defaults, and why:
// - headings and table header cells keep the author's letter case (the default upper-cases them,
//   which reads as shouting and breaks case-sensitive names);
// - table rows are lines and cells are separated by a space (by default cells run together:
//   "<td>Name</td><td>v</td>" gave "Namev"); e-mail layout tables are not laid out as grids;
// - images give their alt text only: their URLs are tracking pixels or data: URIs of many KB;
// - a link whose text is its URL is written once.
import type { DomNode, FormatCallback, HtmlToTextOptions } from "html-to-text";

const heading = (selector: string, leadingLineBreaks: number) => ({ selector, options: { uppercase: false, leadingLineBreaks, trailingLineBreaks: 2 } });

const cell: FormatCallback = (elem, walk, builder) => {
  walk(elem.children as DomNode[], builder);
  builder.addInline(" ");
};

const altText: FormatCallback = (elem, _walk, builder) => {
  const alt = (elem.attribs?.alt ?? "").trim();
  if (alt) builder.addInline(`[${alt}]`);
};

export const HTML_TO_TEXT_OPTIONS: HtmlToTextOptions = {
  formatters: { cell, altText },
  selectors: [
    heading("h1", 3), heading("h2", 3), heading("h3", 3), heading("h4", 2), heading("h5", 2), heading("h6", 2),
    { selector: "table", format: "block", options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: "tr", format: "block", options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: "td", format: "cell" },
    { selector: "th", format: "cell" },
    { selector: "img", format: "altText" },
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
  ],
};
