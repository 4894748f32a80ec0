import { describe, expect, test } from "bun:test";
import {
  DecryptError, hashSecret, newDataKey, open, randomString, safeEqual, seal, unwrapDataKey, wrapDataKey,
} from "../../src/store/crypto.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe("AES-256-GCM seal/open", () => {
  test("round trip", async () => {
    const key = newDataKey();
    const sealed = await seal(key, enc("hunter2"), "grant:1");
    expect(dec(await open(key, sealed, "grant:1"))).toBe("hunter2");
    expect(dec(sealed)).not.toContain("hunter2");
  });

  test("a flipped byte fails to open", async () => {
    const key = newDataKey();
    const sealed = await seal(key, enc("hunter2"));
    for (const i of [0, 12, sealed.length - 1]) {
      const tampered = Uint8Array.from(sealed);
      tampered[i]! ^= 1;
      await expect(open(key, tampered)).rejects.toBeInstanceOf(DecryptError);
    }
  });

  test("other associated data fails to open (a blob moved to another grant)", async () => {
    const key = newDataKey();
    const sealed = await seal(key, enc("x"), "grant:1");
    await expect(open(key, sealed, "grant:2")).rejects.toBeInstanceOf(DecryptError);
  });

  test("the same plaintext seals differently each time (fresh IV)", async () => {
    const key = newDataKey();
    const a = await seal(key, enc("same"));
    const b = await seal(key, enc("same"));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  // Stores written before the switch to node:crypto hold WebCrypto's iv ‖ ciphertext ‖ tag.
  test("the byte format is WebCrypto's AES-GCM, both ways", async () => {
    const key = newDataKey();
    const webKey = await crypto.subtle.importKey("raw", Uint8Array.from(key), "AES-GCM", false, ["encrypt", "decrypt"]);
    const params = (iv: Uint8Array) => ({ name: "AES-GCM", iv: Uint8Array.from(iv), additionalData: enc("grant:1") });
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const webSealed = new Uint8Array([...iv, ...new Uint8Array(await crypto.subtle.encrypt(params(iv), webKey, enc("hunter2")))]);
    expect(dec(await open(key, webSealed, "grant:1"))).toBe("hunter2");
    const ours = await seal(key, enc("hunter2"), "grant:1");
    expect(dec(new Uint8Array(await crypto.subtle.decrypt(params(ours.slice(0, 12)), webKey, ours.slice(12))))).toBe("hunter2");
  });
});

describe("data key wrapping", () => {
  const master = new Uint8Array(32).fill(1);
  test("unwraps with the same master key and token", async () => {
    const dk = newDataKey();
    const wrapped = await wrapDataKey(master, "token-a", dk, "grant:9");
    expect(Buffer.from(await unwrapDataKey(master, "token-a", wrapped, "grant:9")).equals(Buffer.from(dk))).toBe(true);
  });
  test("the wrong token fails to unwrap", async () => {
    const wrapped = await wrapDataKey(master, "token-a", newDataKey(), "g");
    await expect(unwrapDataKey(master, "token-b", wrapped, "g")).rejects.toBeInstanceOf(DecryptError);
  });
  test("a wrong master key fails to unwrap", async () => {
    const wrapped = await wrapDataKey(master, "token-a", newDataKey(), "g");
    await expect(unwrapDataKey(new Uint8Array(32).fill(2), "token-a", wrapped, "g")).rejects.toBeInstanceOf(DecryptError);
  });
});

describe("hashes, comparison and random strings", () => {
  test("hashSecret is SHA-256 hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
  test("safeEqual", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
  test("randomString has the asked length and alphabet, and differs", () => {
    const a = randomString(48);
    expect(a).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(randomString(48)).not.toBe(a);
  });
});
