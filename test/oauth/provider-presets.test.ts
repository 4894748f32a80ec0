// The Microsoft and Google presets against what the providers document for IMAP/SMTP with OAuth, as
// docs/oauth-providers.md §1 and §2 record it (no network here): endpoints, scopes and their order,
// the parameters that make a refresh token come, the mail servers and the SASL mechanism.
import { describe, expect, test } from "bun:test";
import { googleProvider, microsoftProvider } from "../../src/oauth/provider-sign-in/presets.ts";
import { OAuthProviders } from "../../src/oauth/provider-sign-in/registry.ts";
import { authorizationUrl } from "../../src/oauth/provider-sign-in/start.ts";
import { s256 } from "../../src/oauth/protocol/pkce.ts";

const VERIFIER = "v".repeat(43);

describe("Microsoft (docs/oauth-providers.md §1)", () => {
  const p = microsoftProvider({ clientId: "00001111-aaaa-2222-bbbb-3333cccc4444", clientSecret: "s", tenant: "common" });

  test("identity platform v2.0 endpoints of the configured tenant", () => {
    expect(p.authorizationEndpoint).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/authorize");
    expect(p.tokenEndpoint).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/token");
    const org = microsoftProvider({ clientId: "c", clientSecret: null, tenant: "contoso.onmicrosoft.com" });
    expect(org.tokenEndpoint).toBe("https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token");
  });

  test("the full Outlook resource scopes first, then offline_access and the ID token's", () => {
    expect(p.scopes.slice(0, 2)).toEqual(["https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send"]);
    expect(p.scopes).toContain("offline_access");
    for (const s of ["openid", "email", "profile"]) expect(p.scopes).toContain(s);
  });

  test("outlook.office365.com:993 TLS, smtp.office365.com:587 STARTTLS, XOAUTH2, address from the ID token", () => {
    expect(p.imap).toEqual({ host: "outlook.office365.com", port: 993, security: "tls" });
    expect(p.smtp).toEqual({ host: "smtp.office365.com", port: 587, security: "starttls" });
    expect(p.sasl).toBe("xoauth2");
    expect(p.addressFrom).toBe("id_token");
  });

  test("the authorization request: code, S256, the callback, the scope as one space-separated string", () => {
    const url = new URL(authorizationUrl(p, "https://mail-mcp.example.com", "st", VERIFIER, "alice@outlook.com"));
    expect(`${url.origin}${url.pathname}`).toBe(p.authorizationEndpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code", client_id: "00001111-aaaa-2222-bbbb-3333cccc4444",
      redirect_uri: "https://mail-mcp.example.com/oauth/upstream/callback",
      scope: "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access openid email profile",
      state: "st", code_challenge: s256(VERIFIER), code_challenge_method: "S256", login_hint: "alice@outlook.com",
    });
  });
});

describe("Google (docs/oauth-providers.md §2)", () => {
  const p = googleProvider({ clientId: "123.apps.googleusercontent.com", clientSecret: "s" });

  test("OAuth 2.0 endpoints for web server applications", () => {
    expect(p.authorizationEndpoint).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(p.tokenEndpoint).toBe("https://oauth2.googleapis.com/token");
  });

  test("https://mail.google.com/ with offline access and a consent screen, so a refresh token comes every time", () => {
    expect(p.scopes[0]).toBe("https://mail.google.com/");
    expect(p.scopes).toEqual(expect.arrayContaining(["openid", "email"]));
    expect(p.authorizeParams).toEqual({ access_type: "offline", prompt: "consent" });
    const url = new URL(authorizationUrl(p, "https://m.example", "st", VERIFIER, null));
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.has("login_hint")).toBe(false);
  });

  test("imap.gmail.com:993 and smtp.gmail.com:465 over TLS, XOAUTH2; Gmail files Sent itself", () => {
    expect(p.imap).toEqual({ host: "imap.gmail.com", port: 993, security: "tls" });
    expect(p.smtp).toEqual({ host: "smtp.gmail.com", port: 465, security: "tls" });
    expect(p.sasl).toBe("xoauth2");
    expect(p.savesSent).toBe(true);
  });
});

describe("the registry", () => {
  test("a preset is on only when configured; the file's follow; the form's CSP learns their origins", () => {
    expect(new OAuthProviders({ microsoft: null, google: null, file: [] }).list()).toEqual([]);
    const on = new OAuthProviders({ microsoft: { clientId: "m", clientSecret: null, tenant: "common" }, google: { clientId: "g", clientSecret: "s" }, file: [] });
    expect(on.list().map((p) => p.id)).toEqual(["microsoft", "google"]);
    expect(on.authorizationOrigins()).toEqual(["https://login.microsoftonline.com", "https://accounts.google.com"]);
    expect(JSON.stringify(on.info())).not.toContain("clientSecret");
    expect(on.info()[1]).toEqual({ id: "google", name: "Google", label: "Google (Gmail, Google Workspace)", imap: expect.any(Object), smtp: expect.any(Object), notes: expect.any(String) });
  });
});
