// A mailbox's signature on a message it composes: below the new text and above any quote or
// forwarded message, after the "-- " delimiter line in the text part (RFC 3676 §4.3, which mail
// readers use to grey or strip it) and in a marked block in the HTML part, so the person and a
// later update can tell it from the text. Each identity has its own (./identity.ts): the message's is
// the one of the identity it goes out from.
import { renderMarkdown } from "../compose/markdown.ts";
import type { Addition } from "../compose/quote.ts";

/** The class of the HTML block that holds the signature. */
export const SIGNATURE_CLASS = "mailbox-mcp-signature";

/** The signature (Markdown; plain text is Markdown too) as a block for ../compose/quote.ts appendBlock. */
export function signatureBlock(markdown: string): Addition {
  const { text, html } = renderMarkdown(markdown);
  return {
    text: `-- \n${text.replace(/\s+$/, "")}`,
    html: `<div class="${SIGNATURE_CLASS}">-- <br>\n${html.trim()}</div>`,
  };
}
