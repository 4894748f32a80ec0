// markdown bodies (src/mail/compose/markdown.ts): one source, an HTML part and a plain-text part that
// say the same, links kept in both; raw HTML and script links never reach the HTML.
import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "../../src/mail/compose/markdown.ts";

describe("markdown bodies", () => {
  test("headings, emphasis, lists (nested, ordered), quotes, code, tables and links, in both parts", () => {
    const src = [
      "# Launch", "", "Hi **Bob**,", "see [the plan](https://plan.example/x?a=1&b=2) or https://bare.example/y.", "",
      "- one", "- two", "  1. first", "  2. second", "- three", "", "> quoted", "> on", "", "```", "code  kept", "```", "",
      "| a | b |", "|---|---|", "| 1 | 2 |", "", "Bye",
    ].join("\n");
    const { html, text } = renderMarkdown(src);
    expect(text).toBe([
      "Launch", "", "Hi Bob,", "see the plan <https://plan.example/x?a=1&b=2> or https://bare.example/y.", "",
      "- one", "- two", "   1. first", "   2. second", "- three", "", "> quoted", "> on", "", "code  kept", "", "a | b", "1 | 2", "", "Bye",
    ].join("\n"));
    expect(html).toContain('<a href="https://plan.example/x?a=1&amp;b=2">the plan</a>');
    expect(html).toContain('<a href="https://bare.example/y">https://bare.example/y</a>');
    expect(html).toContain("<strong>Bob</strong>");
    expect(html).toMatch(/<ol>\s*<li>first<\/li>/);
    expect(html).toContain("<blockquote>");
  });

  test("raw HTML is shown as text, javascript: links are not links, a mailto link is written once", () => {
    const { html, text } = renderMarkdown('<img src=x onerror=alert(1)> [click](javascript:alert(1)) [bob@example.test](mailto:bob@example.test)');
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain('href="javascript:');
    expect(text).toBe("<img src=x onerror=alert(1)> [click](javascript:alert(1)) bob@example.test");
  });

  test("a single line break is a line break, as people type mail", () => {
    const { html, text } = renderMarkdown("Hi Bob,\nthanks.");
    expect(html).toBe("<p>Hi Bob,<br>\nthanks.</p>\n");
    expect(text).toBe("Hi Bob,\nthanks.");
  });
});
