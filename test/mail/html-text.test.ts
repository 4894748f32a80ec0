// HTML → text: the options (letter case, tables, images), the cheap stripper, the worker pool's
// budget, and the bound on what the converter is given. Real helper processes, no servers
// (their fairness and memory ceiling: content-helpers.test.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { HtmlConverter } from "../../src/mail/content/html-text/converter.ts";
import { htmlToText, HTML_CONVERT_BOUND } from "../../src/mail/content/html-text/convert.ts";
import { stripTags } from "../../src/mail/content/html-text/strip.ts";

const converter = new HtmlConverter({ processes: 1, budgetMs: 20_000, idleMs: 5_000 });
afterAll(() => converter.close());

const wideTable = (cells: number) => `<table><tr>${"<td>x</td>".repeat(cells)}</tr></table>`;

describe("the converter's options", () => {
  test("headings and header cells keep their case; rows are lines, cells are spaced; images give alt text", async () => {
    const r = await converter.convert("<h1>Welcome Home</h1><h4>Small Print</h4><table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table>" +
      '<img alt="Logo" src="data:image/png;base64,AAAA"><img src="https://t.example/pixel.gif"><a href="https://x.example/">https://x.example/</a>');
    expect(r).toEqual({ ok: true, text: "Welcome Home\n\nSmall Print\n\nName Price\nTea 3\n[Logo]https://x.example/" });
  });
});

describe("stripTags", () => {
  test("drops tags, script, style and comments; blocks become lines, cells spaces; entities decoded", () => {
    const html = "<html><head><title>T</title><style>p{color:red}</style></head><body><!-- hidden --><p>Tom &amp; Jerry&nbsp;&#x2603;&#9731;</p>" +
      "<script>alert(1)</script><table><tr><td>a</td><td>b</td></tr></table><div>Caf&eacute; &bogus; end</div></body></html>";
    expect(stripTags(html)).toBe("Tom & Jerry ☃☃\n\na b\n\nCaf&eacute; &bogus; end");
  });

  test("from an offset: what comes before only sets the state (inside <style>)", () => {
    const html = "<p>head</p><style>.a{b:c}\n.d{e:f}</style><p>tail</p>";
    expect(stripTags(html, html.indexOf(".d"))).toBe("tail");
    expect(stripTags(html, html.indexOf("tail"))).toBe("tail");
  });

  test("stops once it has enough, and ends on inputs that have no end", () => {
    expect(stripTags(wideTable(400_000), 0, 100).length).toBeLessThan(120);
    expect(stripTags("<".repeat(1_000_000) + "text")).toBe("");
    expect(stripTags("<style>" + "x".repeat(1_000_000))).toBe("");
    expect(stripTags("a < b and c > d")).toBe("a d");
  });
});

describe("the helper processes", () => {
  test("a conversion over its budget is abandoned and its helper replaced", async () => {
    expect(await converter.convert(wideTable(400_000), "t", 1)).toEqual({ ok: false, reason: "timeout" });
    expect(await converter.convert("<p>after</p>")).toEqual({ ok: true, text: "after" });
  });

  test("HTML that overflows the converter's stack is an error, not a crash", async () => {
    expect(await converter.convert(`${"<div>".repeat(24_000)}deep${"</div>".repeat(24_000)}`)).toEqual({ ok: false, reason: "error" });
    expect(await converter.convert("<b>still fine</b>")).toEqual({ ok: true, text: "still fine" });
  });

  test("a helper that cannot be started (no processes or file descriptors left) is an error, and its slot serves the next job", async () => {
    const own = new HtmlConverter({ processes: 1, budgetMs: 20_000, idleMs: 1_000 });
    const spawn = Bun.spawn;
    Bun.spawn = (() => { throw Object.assign(new Error("spawn EAGAIN"), { code: "EAGAIN" }); }) as typeof Bun.spawn;
    try {
      // Before: the throw escaped the pool, the call never settled and the slot stayed taken.
      expect(await own.convert("<p>one</p>")).toEqual({ ok: false, reason: "error" });
    } finally {
      Bun.spawn = spawn;
    }
    expect(await own.convert("<p>two</p>")).toEqual({ ok: true, text: "two" });
    own.close();
  });
});

describe("htmlToText: bounded work, a stripped fallback with a note", () => {
  test("past the budget: tag-stripped text, cut near max_chars, and a note", async () => {
    const tight = new HtmlConverter({ processes: 1, budgetMs: 1, idleMs: 1_000 });
    const r = await htmlToText(wideTable(400_000), 1_000, { owner: "t", html: tight });
    expect(r.text.startsWith("x x x")).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(2_100);
    expect(r.note).toMatch(/too complex to convert to text in time; it is shown with its tags stripped/);
    tight.close();
  });

  test("only the first 256 K characters of HTML are converted, whatever is asked for; the rest is stripped when the text is short", async () => {
    const styled = `<p style="${"x".repeat(HTML_CONVERT_BOUND)}">first</p>` + "<p>more text</p>".repeat(100);
    const r = await htmlToText(styled, 1_000, { owner: "t", html: converter });
    expect(r.text.startsWith("first")).toBe(true);
    expect(r.text).toContain("more text");
    expect(r.note).toMatch(/the rest is shown with its tags stripped/);
    const small = await htmlToText("<h2>Short One</h2>", 1_000, { owner: "t", html: converter });
    expect(small).toEqual({ text: "Short One", note: null });
  });
});
