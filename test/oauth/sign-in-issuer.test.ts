// RFC 9207 on the provider sign-in callback (issue 41, item 3): a provider that declares its issuer
// (the providers file's `issuer`) must send exactly it as `iss`; an answer carrying another
// configured provider's issuer is refused whatever the flow's provider declares; a provider that
// declares none and sends none goes on as before. The file's `issuer` is checked as a URL.
import { describe, expect, test } from "bun:test";
import { readProvidersFile } from "../../src/config/oauth-providers.ts";
import { issuerProblem } from "../../src/oauth/provider-sign-in/callback.ts";
import { OAuthProviders } from "../../src/oauth/provider-sign-in/registry.ts";

const endpoint = { host: "mail.example.test", port: 993, security: "tls" };
const entry = (id: string, issuer?: string) => ({
  id, name: id.toUpperCase(), authorization_endpoint: `https://${id}.test/authorize`, token_endpoint: `https://${id}.test/token`,
  client_id: "c", scopes: ["openid"], address_from: "id_token", imap: endpoint, smtp: endpoint, ...(issuer ? { issuer } : {}),
});
const file = (...providers: unknown[]) => readProvidersFile("p.json", false, () => JSON.stringify({ providers }));
const registry = new OAuthProviders({ microsoft: null, google: null, file: file(entry("strict", "https://strict.test"), entry("plain"), entry("other", "https://other.test")) });
const p = (id: string) => registry.find(id)!;

describe("the callback's iss (RFC 9207)", () => {
  test("a provider that declares its issuer: exactly it, and it is required", () => {
    expect(issuerProblem(registry, p("strict"), "https://strict.test")).toBeNull();
    expect(issuerProblem(registry, p("strict"), undefined)).toContain("not from STRICT");
    expect(issuerProblem(registry, p("strict"), "https://other.test")).toContain("not from STRICT");
  });

  test("a provider that declares none: another configured provider's issuer is refused; none is fine", () => {
    expect(issuerProblem(registry, p("plain"), undefined)).toBeNull();
    expect(issuerProblem(registry, p("plain"), "https://other.test")).toContain("not from PLAIN");
  });

  test("the providers file's issuer must be a URL", () => {
    expect(() => file(entry("bad", "not a url"))).toThrow(/issuer/);
    expect(file(entry("ok", "https://ok.test"))[0]!.issuer).toBe("https://ok.test");
  });
});
