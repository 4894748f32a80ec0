// Cursors are the server's own. A cursor is self-contained (nothing is kept on the server), so the
// caller holds everything in it; a keyed MAC (HMAC-SHA256, RFC 2104) over its kind, the mailbox it
// belongs to and its body lets the server take back only what it made itself, for this grant and
// this mailbox. Anything else is refused before any IMAP work, however well-formed it looks.
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a cursor is sealed with: the grant's key (grantCursorKey) and the mailbox it reads. */
export interface CursorSeal {
  key: Uint8Array;
  /** The account the grant reads: IMAP host, port and login. */
  mailbox: string;
}

// 128 bits of tag: NIST SP 800-107 §5.3.4 counts a truncated HMAC's strength by its length.
const TAG_BYTES = 16;

/** The service's cursor key, derived once from the master key (a key of its own for one purpose). */
export function cursorKeyOf(masterKey: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", masterKey).update("mailbox-mcp cursor v1", "utf8").digest());
}

/** The key of one grant: a cursor made for one grant is refused by every other. */
export function grantCursorKey(serviceKey: Uint8Array, grantId: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", serviceKey).update(`grant\0${grantId}`, "utf8").digest());
}

/** The mailbox part of the seal, from the account the grant reads. */
export function mailboxOf(account: { username: string; imap: { host: string; port: number } }): string {
  return `${account.imap.host.toLowerCase()}:${account.imap.port}\0${account.username}`;
}

function tag(seal: CursorSeal, kind: string, body: string): Buffer {
  return createHmac("sha256", seal.key).update(`${kind}\0${seal.mailbox}\0${body}`, "utf8").digest().subarray(0, TAG_BYTES);
}

/** `kind.body.tag`, all base64url: kind names the tool and the format version. */
export function sealCursor(seal: CursorSeal, kind: string, body: string): string {
  return `${kind}.${Buffer.from(body, "utf8").toString("base64url")}.${tag(seal, kind, body).toString("base64url")}`;
}

/** The body of a cursor this server sealed for this grant and mailbox, or null (anything else). */
export function openCursor(seal: CursorSeal, kind: string, text: string): string | null {
  const parts = text.split(".");
  if (parts.length !== 3 || parts[0] !== kind) return null;
  const body = Buffer.from(parts[1]!, "base64url").toString("utf8");
  const given = Buffer.from(parts[2]!, "base64url");
  const want = tag(seal, kind, body);
  // Constant-time: a caller must not learn a valid tag byte by byte from how long the refusal took.
  if (given.length !== want.length || !timingSafeEqual(given, want)) return null;
  // base64url has several spellings of the same bytes; only the one this server wrote is its own.
  return Buffer.from(body, "utf8").toString("base64url") === parts[1] ? body : null;
}
