import { describe, expect, test } from "bun:test";
import { isValidChallenge, isValidVerifier, s256, verifierMatches } from "../../src/oauth/protocol/pkce.ts";

describe("PKCE S256 (RFC 7636)", () => {
  test("Appendix B test vector", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(s256(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(verifierMatches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
    expect(verifierMatches(verifier + "x", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
  });

  test("verifier: 43 to 128 unreserved characters", () => {
    expect(isValidVerifier("a".repeat(42))).toBe(false);
    expect(isValidVerifier("a".repeat(43))).toBe(true);
    expect(isValidVerifier("a".repeat(128))).toBe(true);
    expect(isValidVerifier("a".repeat(129))).toBe(false);
    expect(isValidVerifier("aZ09-._~".repeat(6))).toBe(true);
    expect(isValidVerifier("a".repeat(42) + "+")).toBe(false);
    expect(isValidVerifier("a".repeat(42) + " ")).toBe(false);
  });

  test("challenge: exactly 43 base64url characters", () => {
    expect(isValidChallenge(s256("x".repeat(43)))).toBe(true);
    expect(isValidChallenge("a".repeat(42))).toBe(false);
    expect(isValidChallenge("a".repeat(44))).toBe(false);
    expect(isValidChallenge("a".repeat(42) + "=")).toBe(false);
    expect(isValidChallenge("a".repeat(42) + "+")).toBe(false);
  });
});
