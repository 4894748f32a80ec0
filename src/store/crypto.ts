// Cryptographic primitives for the credential store (docs/design.md §4).
// Only node:crypto (Bun's implementation, BoringSSL) is used.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const IV_BYTES = 12; // AES-GCM nonce, NIST SP 800-38D §8.2
const KEY_BYTES = 32; // AES-256
const TAG_BYTES = 16; // the full 128-bit GCM tag

export class DecryptError extends Error {
  constructor() {
    super("sealed data could not be opened (wrong key or tampered data)");
    this.name = "DecryptError";
  }
}

/** SHA-256 of a secret as lowercase hex: what the store keeps instead of tokens and codes. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time string comparison; unequal lengths compare unequal without a shortcut on content. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random string over [A-Za-z0-9] without modulo bias (rejection sampling). */
export function randomString(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += CODE_ALPHABET[byte % 62]; // 248 = 4 * 62
      if (out.length === length) break;
    }
  }
  return out;
}

export function newDataKey(): Uint8Array {
  return new Uint8Array(randomBytes(KEY_BYTES));
}

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new Error("AES-256 key must be 32 bytes");
}

// AES-256-GCM with node:crypto rather than WebCrypto: the same bytes (WebCrypto's output is
// ciphertext ‖ tag as well), but Bun's crypto.subtle costs ~0.25 ms per unwrap + open, paid on
// every send_email and draft_email; this is a few microseconds. The async signatures stay.

/** AES-256-GCM: output is iv ‖ ciphertext ‖ tag. `aad` binds the blob to its row. */
export async function seal(key: Uint8Array, plaintext: Uint8Array, aad = ""): Promise<Uint8Array> {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, ct, cipher.getAuthTag()]));
}

export async function open(key: Uint8Array, sealed: Uint8Array, aad = ""): Promise<Uint8Array> {
  checkKey(key);
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new DecryptError();
  let head: Buffer | undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    head = decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES));
    const tail = decipher.final(); // throws when the tag does not match
    // Assembled by hand, not with Buffer.concat: that may place the plaintext in Node's shared pool.
    const out = new Uint8Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  } catch {
    throw new DecryptError();
  } finally {
    head?.fill(0);
  }
}

/**
 * The key that wraps a grant's data key: HMAC-SHA256(master key, secret).
 * It needs both the master key and the code or token, so the database alone,
 * or the database plus the master key, cannot unwrap any credentials.
 */
export function wrappingKey(masterKey: Uint8Array, secret: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", masterKey).update("mailbox-mcp wrap v1\0" + secret, "utf8").digest());
}

/**
 * A stable, non-reversible key for "this mailbox login through this client": HMAC-SHA256 under
 * the master key, so the database alone does not reveal (or let anyone confirm) who connected.
 */
export function ownerKey(masterKey: Uint8Array, parts: readonly string[]): string {
  return createHmac("sha256", masterKey).update("mailbox-mcp owner v1\0" + parts.join("\0"), "utf8").digest("hex");
}

/** Who a grant is for across clients: HMAC of the mailbox login alone (migration 9), for the session cap's fairness. */
export function mailboxKey(masterKey: Uint8Array, login: string): string {
  return ownerKey(masterKey, ["mailbox", login]);
}

/**
 * The key that seals what the owner's own tools show (grant labels, activity details): derived from
 * the master key alone, so the database without the master key names no mailbox and no recipient.
 * Unlike credentials these are readable by whoever holds the master key: the operator running
 * `mailbox-mcp grants` or `activity` on the server (docs/owner.md).
 */
function recordsKey(masterKey: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", masterKey).update("mailbox-mcp records v1", "utf8").digest());
}

/** JSON sealed under the records key; `aad` binds it to its row. */
export function sealRecord(masterKey: Uint8Array, value: unknown, aad: string): Promise<Uint8Array> {
  return seal(recordsKey(masterKey), new TextEncoder().encode(JSON.stringify(value)), aad);
}

export async function openRecord<T>(masterKey: Uint8Array, sealed: Uint8Array, aad: string): Promise<T> {
  return JSON.parse(new TextDecoder().decode(await open(recordsKey(masterKey), sealed, aad))) as T;
}

export function wrapDataKey(masterKey: Uint8Array, secret: string, dataKey: Uint8Array, aad: string) {
  return seal(wrappingKey(masterKey, secret), dataKey, aad);
}

export function unwrapDataKey(masterKey: Uint8Array, secret: string, wrapped: Uint8Array, aad: string) {
  return open(wrappingKey(masterKey, secret), wrapped, aad);
}

/**
 * What the store keeps to recognise its master key without holding it: HMAC-SHA256(key, a fixed
 * label). It tells an instance started with another key, and reveals nothing of the key itself.
 */
export function keyCheckValue(masterKey: Uint8Array): string {
  return createHmac("sha256", masterKey).update("mailbox-mcp key check", "utf8").digest("hex");
}

/**
 * A key for one purpose, derived from the master key (HMAC-SHA256 under a label naming it): the
 * same on every instance sharing the master key, and useless for anything else.
 */
export function derivedKey(masterKey: Uint8Array, label: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", masterKey).update(`mailbox-mcp ${label}`, "utf8").digest());
}
