// The pieces of a sign-in that need no provider: when a token is renewed (docs/oauth-providers.md §3),
// which address the ID token names, and how a provider's refusal is worded (§4).
import { describe, expect, test } from "bun:test";
import { addressFromClaims, jwtClaims, learnAddress } from "../../src/oauth/provider-sign-in/address.ts";
import type { OAuthProvider } from "../../src/oauth/provider-sign-in/provider.ts";
import { renewalFor, retryLater } from "../../src/oauth/provider-sign-in/lifetime.ts";
import { upstreamError } from "../../src/oauth/provider-sign-in/errors.ts";

describe("renewal time: four fifths of the lifetime", () => {
  const set = (expiresIn: number, refreshToken: string | null = "rt") => ({ accessToken: "at", refreshToken, expiresIn, idToken: null });

  test("an hour's token is renewed 12 minutes before it expires; a 10 s one 2 s before", () => {
    expect(renewalFor(set(3600), 0)).toEqual({ refreshToken: "rt", expiresAt: 3_600_000, renewAt: 2_880_000 });
    expect(renewalFor(set(10), 1000)).toEqual({ refreshToken: "rt", expiresAt: 11_000, renewAt: 9_000 });
  });

  test("no new refresh token: the old one is kept; none at all: no renewal", () => {
    expect(renewalFor(set(60, null), 0, "old")?.refreshToken).toBe("old");
    expect(renewalFor(set(60, null), 0)).toBeNull();
  });

  test("after a failure that may pass: retried after half the time left, at most a minute, never past expiry", () => {
    const r = { refreshToken: "rt", expiresAt: 100_000, renewAt: 80_000 };
    expect(retryLater(r, 80_000).renewAt).toBe(90_000);
    expect(retryLater({ ...r, expiresAt: 10_000_000 }, 80_000).renewAt).toBe(140_000);
  });
});

describe("the address a sign-in names", () => {
  const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

  test("email, else Microsoft's preferred_username or upn; an unverified email is skipped", () => {
    expect(addressFromClaims(jwtClaims(jwt({ email: "a@x.example", preferred_username: "b@x.example" }))!)).toBe("a@x.example");
    expect(addressFromClaims({ preferred_username: "b@x.example" })).toBe("b@x.example");
    expect(addressFromClaims({ email: "a@x.example", email_verified: false, upn: "c@x.example" })).toBe("c@x.example");
    expect(addressFromClaims({ preferred_username: "not an address" })).toBeNull();
    expect(jwtClaims("garbage")).toBeNull();
  });

  test("an address with a control character is refused in words, from userinfo or the ID token, never skipped", async () => {
    const p = { name: "Acme", addressFrom: "userinfo", userinfoEndpoint: "https://acme.test/userinfo" } as OAuthProvider;
    const tokens = { accessToken: "at", refreshToken: "rt", expiresIn: 60, idToken: null };
    const answering = (claims: object) => async () => Response.json(claims);
    for (const email of ["a@x.example\n", "a\u0085b@x.example", "a@x.example\u2028"]) {
      const err = await learnAddress(p, tokens, "", answering({ email, preferred_username: "b@x.example" })).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: "misconfigured", message: expect.stringContaining("Acme named the mailbox you signed in to with a control character") });
      const fromToken = { ...p, addressFrom: "id_token" } as OAuthProvider;
      await expect(learnAddress(fromToken, { ...tokens, idToken: jwt({ upn: email }) }, "")).rejects.toThrow("control character");
    }
    expect(await learnAddress(p, tokens, "", answering({ email: "a@x.example" }))).toBe("a@x.example");
  });
});

describe("a provider's refusal in words", () => {
  test("AADSTS numbers have their own words and keep the number", () => {
    const e = upstreamError("Microsoft", "invalid_request", "AADSTS50020: User account from identity provider 'live.com' does not exist in tenant.\r\nTrace ID: x");
    expect(e.kind).toBe("refused");
    expect(e.message).toContain("does not belong to the organisation (tenant)");
    expect(e.message).toEndWith("(AADSTS50020)");
    expect(upstreamError("Microsoft", "invalid_client", "AADSTS7000222: The provided client secret keys are expired.").kind).toBe("misconfigured");
  });

  test("invalid_grant: at renewal the sign-in is lost; at the code exchange the person tries again", () => {
    expect(upstreamError("Google", "invalid_grant", "Token has been expired or revoked.", true)).toMatchObject({
      kind: "lost", message: "The sign-in at Google expired or was revoked: reconnect the mailbox.",
    });
    expect(upstreamError("Google", "invalid_grant", "Bad Request").kind).toBe("refused");
  });

  test("by the OAuth code otherwise, with the provider's first line quoted", () => {
    expect(upstreamError("Acme", "access_denied", null).message).toBe("You did not allow access at Acme. To connect the mailbox, sign in again and accept.");
    const other = upstreamError("Acme", "weird", "first line\nsecond line");
    expect(other.message).toBe("Acme refused the sign-in (weird). Acme said: “first line”");
    expect(upstreamError("Acme", "temporarily_unavailable", null).kind).toBe("unavailable");
  });
});
