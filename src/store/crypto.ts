// Cryptographic primitives for the credential store (DESIGN §4).
// Only Bun's WebCrypto and node:crypto (Bun's implementation) are used.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const IV_BYTES = 12; // AES-GCM nonce, NIST SP 800-38D §8.2
const KEY_BYTES = 32; // AES-256

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

async function importAesKey(raw: Uint8Array): Promise<CryptoKey> {
  if (raw.length !== KEY_BYTES) throw new Error("AES-256 key must be 32 bytes");
  return crypto.subtle.importKey("raw", Uint8Array.from(raw), "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** AES-256-GCM: output is iv ‖ ciphertext ‖ tag. `aad` binds the blob to its row. */
export async function seal(key: Uint8Array, plaintext: Uint8Array, aad = ""): Promise<Uint8Array> {
  const iv = new Uint8Array(randomBytes(IV_BYTES));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad) },
    await importAesKey(key),
    Uint8Array.from(plaintext),
  );
  const out = new Uint8Array(IV_BYTES + ct.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(ct), IV_BYTES);
  return out;
}

export async function open(key: Uint8Array, sealed: Uint8Array, aad = ""): Promise<Uint8Array> {
  if (sealed.length < IV_BYTES + 16) throw new DecryptError();
  try {
    const pt = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: sealed.slice(0, IV_BYTES), additionalData: new TextEncoder().encode(aad) },
      await importAesKey(key),
      sealed.slice(IV_BYTES),
    );
    return new Uint8Array(pt);
  } catch {
    throw new DecryptError();
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

export function wrapDataKey(masterKey: Uint8Array, secret: string, dataKey: Uint8Array, aad: string) {
  return seal(wrappingKey(masterKey, secret), dataKey, aad);
}

export function unwrapDataKey(masterKey: Uint8Array, secret: string, wrapped: Uint8Array, aad: string) {
  return open(wrappingKey(masterKey, secret), wrapped, aad);
}
