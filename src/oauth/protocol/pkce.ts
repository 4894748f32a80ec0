// PKCE (RFC 7636), S256 only.
import { createHash } from "node:crypto";
import { safeEqual } from "../../store/crypto.ts";

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))) is always 43 base64url characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: code_verifier = 43*128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isValidChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** RFC 7636 §4.2, S256 transformation. */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** RFC 7636 §4.6: compare the transformed verifier with the stored challenge, in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return safeEqual(s256(verifier), challenge);
}
