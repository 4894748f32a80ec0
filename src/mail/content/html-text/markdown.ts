// How HTML becomes Markdown for get_email's format "markdown" (turndown 7, with its own DOM parser):
// links stay [text](url), headings #, lists - and 1., emphasis * and **, quotes >, code fences.
// As for text (./options.ts): images give their alt text only (their URLs are tracking pixels or
// data: URIs of many KB), and what a reader never sees (style, script, head) is dropped.
// Email layout tables are not Markdown tables: turndown without its table plugin lays their cells
// out as blocks, in reading order, which is how a newsletter reads.
import TurndownService from "turndown";

export function markdownConverter(): (html: string) => string {
  const td = new TurndownService({
    headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced", emDelimiter: "*", strongDelimiter: "**", linkStyle: "inlined",
  });
  td.remove(["style", "script", "head", "title", "template", "noscript"]);
  td.addRule("alt-text", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = ((node as { getAttribute(n: string): string | null }).getAttribute("alt") ?? "").trim().replace(/[[\]]/g, "");
      return alt ? `[${alt}]` : "";
    },
  });
  // "- item" and "1. item" with one space (turndown pads the marker to four columns).
  td.addRule("list-item", {
    filter: "li",
    replacement: (content, node) => {
      const li = node as unknown as { parentNode: { nodeName: string; children: ArrayLike<unknown>; getAttribute(n: string): string | null } | null; nextSibling: unknown };
      const parent = li.parentNode;
      let prefix = "- ";
      if (parent?.nodeName === "OL") prefix = `${Number(parent.getAttribute("start") ?? 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      const body = content.replace(/^\n+/, "").replace(/\n+$/, "\n").replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
      return prefix + body + (li.nextSibling && !/\n$/.test(body) ? "\n" : "");
    },
  });
  return (html) => td.turndown(html);
}
