// A `markdown` body becomes an HTML part and a plain-text alternative, both from the same source
// (docs/design.md §6), so a reader sees the same words, lists and links whichever part their client
// shows (RFC 2046 §5.1.4). The parser is markdown-it (CommonMark + tables + strikethrough) with its
// safe defaults: raw HTML in the source is escaped, not passed through, and link targets such as
// javascript:, vbscript: and file: are refused (docs/decisions.md "Composing").
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

// breaks: a single line break is a line break, as people type mail (and as a model writes "Hi Bob,\n…").
// linkify: a bare https://… or www.… becomes a link in the HTML part; the text part shows it anyway.
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

export interface MarkdownBody {
  html: string;
  text: string;
}

export function renderMarkdown(source: string): MarkdownBody {
  const tokens = md.parse(source, {});
  return { html: md.renderer.render(tokens, md.options, {}), text: plainText(tokens) };
}

interface List { ordered: boolean; next: number }

/** Walks markdown-it's block tokens, writing each block as plain-text lines. */
class TextWriter {
  private readonly lines: string[] = [];
  private readonly lists: List[] = [];
  private quote = 0;
  private bullet: string | null = null;
  /** A blank line is due before the next block; the quote depth when it was asked for. */
  private gap: number | null = null;
  private row: string[] | null = null;

  text(): string {
    return this.lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
  }

  block(t: Token): void {
    switch (t.type) {
      case "bullet_list_open": case "ordered_list_open":
        if (!this.lists.length) this.blankBefore(); // a nested list follows its item's line directly
        this.lists.push({ ordered: t.type === "ordered_list_open", next: Number(t.attrGet("start") ?? 1) });
        return;
      case "bullet_list_close": case "ordered_list_close":
        this.lists.pop();
        if (!this.lists.length) this.blankBefore();
        return;
      case "list_item_open": {
        const list = this.lists.at(-1)!;
        this.bullet = list.ordered ? `${list.next++}. ` : "- ";
        return;
      }
      case "blockquote_open": this.blankBefore(); this.quote++; return;
      case "blockquote_close": this.quote--; return this.blankBefore();
      case "paragraph_open": case "heading_open": if (!t.hidden) this.blankBefore(); return;
      case "paragraph_close": case "heading_close": if (!t.hidden) this.blankBefore(); return;
      case "fence": case "code_block": this.blankBefore(); this.write(t.content.replace(/\n$/, "").split("\n")); return this.blankBefore();
      case "hr": this.blankBefore(); this.write(["----------"]); return this.blankBefore();
      case "table_open": case "table_close": return this.blankBefore();
      case "tr_open": this.row = []; return;
      case "tr_close": this.write([(this.row ?? []).join(" | ")]); this.row = null; return;
      case "inline": return this.row ? void this.row.push(inlineText(t.children ?? [])) : this.write(inlineText(t.children ?? []).split("\n"));
    }
  }

  private blankBefore(): void {
    this.gap = Math.min(this.gap ?? this.quote, this.quote);
  }

  /** Lines of one block, with the quote marks, list indentation and pending bullet in front. */
  private write(lines: string[]): void {
    const quote = "> ".repeat(this.quote);
    if (this.gap !== null && this.lines.length) this.lines.push("> ".repeat(Math.min(this.gap, this.quote)).trimEnd());
    this.gap = null;
    const indent = "   ".repeat(Math.max(0, this.lists.length - 1));
    lines.forEach((line, i) => {
      const lead = i === 0 && this.bullet ? this.bullet : this.lists.length ? "   " : "";
      this.lines.push(`${quote}${indent}${lead}${line}`.trimEnd());
    });
    this.bullet = null;
  }
}

function plainText(tokens: Token[]): string {
  const w = new TextWriter();
  for (const t of tokens) w.block(t);
  return w.text();
}

/** Inline content: emphasis marks dropped, links as `text <url>` (once when the text is the URL). */
function inlineText(children: Token[]): string {
  let out = "";
  const links: Array<{ href: string; at: number }> = [];
  for (const c of children) {
    switch (c.type) {
      case "text": case "code_inline": out += c.content; break;
      case "softbreak": case "hardbreak": out += "\n"; break;
      case "link_open": links.push({ href: String(c.attrGet("href") ?? ""), at: out.length }); break;
      case "link_close": {
        const link = links.pop();
        if (!link) break;
        const label = out.slice(link.at);
        if (link.href && label !== link.href && `mailto:${label}` !== link.href && !link.href.endsWith(`//${label}`)) out += ` <${link.href}>`;
        break;
      }
      case "image": out += `[${c.content || "image"}] <${c.attrGet("src") ?? ""}>`; break;
    }
  }
  return out;
}
