// The setup form's `send_as` and `signature` fields (docs/design.md §3 "Per-mailbox fields"), checked
// at the edge: one identity a line, `Name <address>` or `address`; at most 20; no control
// characters; a signature (the login address's) of at most 4 KB. The owner's page (/account/identities)
// takes the same two fields, and each other address's signature (/account/signature, parseSignature).
import type { Identity, IdentitySettings } from "../../mail/identities/identity.ts";
import { isMailboxAddress } from "./mailbox-address.ts";

export const MAX_IDENTITIES = 20;
export const MAX_SIGNATURE_BYTES = 4096;
const MAX_NAME = 200;

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators; tabs only in a signature.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
const LINE = /^(?:"?([^"<>]*?)"?\s*<([^<>\s]+)>|([^<>\s]+))$/;

export type ParsedIdentities = { ok: true; settings: IdentitySettings | null } | { ok: false; message: string };

function parseLine(line: string): Identity | string {
  const m = LINE.exec(line);
  const address = m ? (m[2] ?? m[3] ?? "") : "";
  if (!m || !isMailboxAddress(address)) return `"${line.slice(0, 80)}" is not an address: write one per line, as Name <name@example.com> or name@example.com.`;
  const name = (m[1] ?? "").trim();
  if (name.length > MAX_NAME) return `The name for ${address} is too long (at most ${MAX_NAME} characters).`;
  return { name: name || null, address };
}

/**
 * Null settings when both fields are blank: a connect that lists nothing keeps what the mailbox
 * already has (set earlier, from another client or the owner's page), rather than wiping it.
 */
export function parseIdentityFields(sendAs: string | undefined, signature: string | undefined): ParsedIdentities {
  const lines = (sendAs ?? "").split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const sig = (signature ?? "").replace(/\r\n?/g, "\n").replace(/\s+$/, "");
  if (!lines.length && !sig.trim()) return { ok: true, settings: null };
  if (lines.length > MAX_IDENTITIES) return { ok: false, message: `List at most ${MAX_IDENTITIES} addresses to send as.` };
  if (lines.some((l) => CONTROL.test(l))) return { ok: false, message: "The addresses to send as contain control characters." };
  const listed: Identity[] = [];
  for (const line of lines) {
    const parsed = parseLine(line);
    if (typeof parsed === "string") return { ok: false, message: parsed };
    listed.push(parsed);
  }
  const own = parseSignature(sig);
  if (typeof own === "object" && own !== null) return own;
  // The addresses carry no signature here: each keeps the one set for it on the owner's page.
  return { ok: true, settings: { sendAs: listed, signature: own } };
}

/** One identity's signature as typed: null for blank, the text, or why it is refused (control characters, over 4 KB). */
export function parseSignature(typed: string | undefined): string | null | { ok: false; message: string } {
  const sig = (typed ?? "").replace(/\r\n?/g, "\n").replace(/\s+$/, "");
  if (CONTROL.test(sig.replace(/[\t\n]/g, ""))) return { ok: false, message: "The signature contains control characters." };
  if (new TextEncoder().encode(sig).length > MAX_SIGNATURE_BYTES) return { ok: false, message: "The signature is too long (at most 4 KB)." };
  return sig.trim() ? sig : null;
}
