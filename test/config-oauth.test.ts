// MAILBOX_MCP_MICROSOFT_*, MAILBOX_MCP_GOOGLE_* and MAILBOX_MCP_OAUTH_PROVIDERS_FILE (docs/design.md §1,
// docs/oauth-providers.md §5): read once at start-up; a bad value stops it with a line naming the key
// and, for the file, the entry and field.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, parseSettings } from "../src/config.ts";

const dir = mkdtempSync(join(tmpdir(), "oauth-cfg-"));
let n = 0;
function file(doc: unknown): string {
  const path = join(dir, `p${++n}.json`);
  writeFileSync(path, typeof doc === "string" ? doc : JSON.stringify(doc));
  return path;
}

const acme = {
  id: "acme", name: "Acme Mail", authorization_endpoint: "https://id.acme.example/auth", token_endpoint: "https://id.acme.example/token",
  client_id: "mailbox-mcp", scopes: ["openid", "email", "offline_access"], address_from: "id_token",
  imap: { host: "imap.acme.example", port: 993, security: "tls" }, smtp: { host: "smtp.acme.example", port: 465, security: "tls" },
};

function problem(env: Record<string, string>): string {
  try {
    parseSettings([], env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("OAuth mail providers in the configuration", () => {
  test("none by default", () => {
    expect(parseSettings([], {}).oauth).toEqual({ microsoft: null, google: null, file: [] });
  });

  test("Microsoft by its client id: tenant common unless set, secret optional", () => {
    expect(parseSettings([], { MAILBOX_MCP_MICROSOFT_CLIENT_ID: "cid" }).oauth.microsoft).toEqual({ clientId: "cid", clientSecret: null, tenant: "common" });
    const o = parseSettings([], { MAILBOX_MCP_MICROSOFT_CLIENT_ID: "cid", MAILBOX_MCP_MICROSOFT_CLIENT_SECRET: "sec", MAILBOX_MCP_MICROSOFT_TENANT: "organizations" }).oauth;
    expect(o.microsoft).toEqual({ clientId: "cid", clientSecret: "sec", tenant: "organizations" });
  });

  test("Google needs both id and secret", () => {
    expect(parseSettings([], { MAILBOX_MCP_GOOGLE_CLIENT_ID: "g", MAILBOX_MCP_GOOGLE_CLIENT_SECRET: "s" }).oauth.google).toEqual({ clientId: "g", clientSecret: "s" });
    expect(problem({ MAILBOX_MCP_GOOGLE_CLIENT_ID: "g" })).toStartWith("MAILBOX_MCP_GOOGLE_CLIENT_SECRET: is required");
  });

  test("half a preset, or a bad tenant, is refused naming the key", () => {
    expect(problem({ MAILBOX_MCP_MICROSOFT_CLIENT_SECRET: "s" })).toStartWith("MAILBOX_MCP_MICROSOFT_CLIENT_SECRET:");
    expect(problem({ MAILBOX_MCP_MICROSOFT_TENANT: "common" })).toStartWith("MAILBOX_MCP_MICROSOFT_TENANT: is set but");
    expect(problem({ MAILBOX_MCP_MICROSOFT_CLIENT_ID: "c", MAILBOX_MCP_MICROSOFT_TENANT: "a/b" })).toStartWith("MAILBOX_MCP_MICROSOFT_TENANT:");
  });

  test("a providers file: defaults filled in (sasl xoauth2, no secret, nothing extra)", () => {
    const [p] = parseSettings([], { MAILBOX_MCP_OAUTH_PROVIDERS_FILE: file({ providers: [acme] }) }).oauth.file;
    expect(p).toMatchObject({ id: "acme", name: "Acme Mail", sasl: "xoauth2", clientSecret: null, authorizeParams: {}, savesSent: false, userinfoEndpoint: null });
  });

  const bad: Array<[string, unknown, string, Record<string, string>?]> = [
    ["not JSON", "{", "cannot be read as JSON"],
    ["no providers", { providers: [] }, "with 1 to 20 providers"],
    ["http endpoint", { providers: [{ ...acme, token_endpoint: "http://id.acme.example/token" }] }, "providers[0].token_endpoint must be an https:// URL"],
    ["a built-in id", { providers: [{ ...acme, id: "microsoft" }] }, "providers[0].id \"microsoft\" is a built-in provider's id"],
    ["an id twice", { providers: [acme, acme] }, "the id \"acme\" is used twice"],
    ["userinfo without its endpoint", { providers: [{ ...acme, address_from: "userinfo" }] }, "providers[0].userinfo_endpoint is required"],
    ["a bad sasl", { providers: [{ ...acme, sasl: "plain" }] }, "providers[0].sasl must be one of xoauth2, oauthbearer"],
    ["a bad port", { providers: [{ ...acme, imap: { ...acme.imap, port: 0 } }] }, "providers[0].imap.port must be a port"],
    ["one of our own parameters", { providers: [{ ...acme, authorize_params: { state: "x" } }] }, "providers[0].authorize_params.state is set by mailbox-mcp itself"],
    ["empty scopes", { providers: [{ ...acme, scopes: [] }] }, "providers[0].scopes must be a non-empty list"],
  ];
  for (const [what, doc, expected] of bad) {
    test(`the file refused: ${what}`, () => {
      const path = file(doc);
      const msg = problem({ MAILBOX_MCP_OAUTH_PROVIDERS_FILE: path });
      expect(msg).toStartWith(`MAILBOX_MCP_OAUTH_PROVIDERS_FILE: ${path}: `);
      expect(msg).toContain(expected);
    });
  }

  test("http endpoints only with private hosts allowed (tests, homelabs)", () => {
    const path = file({ providers: [{ ...acme, token_endpoint: "http://127.0.0.1:9/token" }] });
    const s = parseSettings([], { MAILBOX_MCP_OAUTH_PROVIDERS_FILE: path, MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true" });
    expect(s.oauth.file[0]!.tokenEndpoint).toBe("http://127.0.0.1:9/token");
  });

  test("a file that is not JSON is refused without quoting it: the mistake may be an unquoted client_secret", () => {
    const path = file(`{"providers": [{"id": "acme", "client_secret": s3cr3t-never-printed}]}`);
    const msg = problem({ MAILBOX_MCP_OAUTH_PROVIDERS_FILE: path });
    expect(msg).toBe(`MAILBOX_MCP_OAUTH_PROVIDERS_FILE: ${path}: cannot be read as JSON (not valid JSON)`);
    expect(msg).not.toContain("s3cr3t");
  });

  test("a missing file says so", () => {
    expect(problem({ MAILBOX_MCP_OAUTH_PROVIDERS_FILE: join(dir, "nope.json") })).toContain("no such file");
  });
});
