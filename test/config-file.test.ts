// The settings file (docs/design.md §1): every setting of the table read from it with the checks of the
// environment, under flags and environment; a bad value or an unknown key names the key and the file;
// `mailbox-mcp config` shows where each value came from and never a secret.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flagsOf } from "../src/cli.ts";
import { ConfigError, parseSettings } from "../src/config.ts";
import { resolveSources } from "../src/config/sources.ts";
import { envName, SETTINGS } from "../src/config/settings-table.ts";
import { formatSettings } from "../src/verbs/config.ts";

const root = mkdtempSync(join(tmpdir(), "cfg-file-"));
let n = 0;
/** A fresh data dir holding `config.toml` with `text`, mode 0600. */
function dataDirWith(text: string, mode = 0o600): { dir: string; path: string } {
  const dir = join(root, `d${++n}`);
  const path = join(mkdtempSync(dir), "config.toml");
  writeFileSync(path, text);
  chmodSync(path, mode);
  return { dir: join(path, ".."), path };
}

const acme = {
  id: "acme", name: "Acme Mail", authorization_endpoint: "https://id.acme.example/auth", token_endpoint: "https://id.acme.example/token",
  client_id: "mailbox-mcp", scopes: ["openid", "email"], address_from: "id_token",
  imap: { host: "imap.acme.example", port: 993, security: "tls" }, smtp: { host: "smtp.acme.example", port: 465, security: "tls" },
};
const providersJson = join(root, "providers.json");
/** `entry` as one `[[oauth_providers]]` table, objects as inline tables. */
const providerTable = (entry: Record<string, unknown>) => `[[oauth_providers]]\n${Object.entries(entry).map(([k, v]) =>
  `${k} = ${typeof v === "object" && !Array.isArray(v) ? `{ ${Object.entries(v as object).map(([a, b]) => `${a} = ${JSON.stringify(b)}`).join(", ")} }` : JSON.stringify(v)}`).join("\n")}`;
writeFileSync(providersJson, JSON.stringify({ providers: [acme] }));

/** A value other than the default for every setting the file may hold, and what it needs beside it. */
const SAMPLES: Record<string, { value: string; with?: Record<string, string> }> = {
  base_url: { value: "https://mail.example.org" },
  host: { value: "0.0.0.0" },
  port: { value: "9123" },
  database_url: { value: "postgres://mail:pw-in-url@db.example/mailbox" },
  client_id: { value: "my-client" },
  client_secret: { value: "c".repeat(40) },
  secret_key: { value: Buffer.alloc(32, 7).toString("base64") },
  client_hosts: { value: "a.example,b.example" },
  site_origin: { value: "https://site.example" },
  extra_redirect_uris: { value: "http://localhost/callback,https://chatgpt.com/cb" },
  extra_origins: { value: "http://localhost:6274" },
  allow_private_hosts: { value: "true" },
  trust_proxy: { value: "yes" },
  open_registration: { value: "on" },
  client_metadata_documents: { value: "1" },
  allowed_mailboxes: { value: "@example.org,imap.example.org" },
  send_limits: { value: "5/h,50/d" },
  notify_grants: { value: "false" },
  imap_max_connections: { value: "42" },
  microsoft_client_id: { value: "ms-id" },
  microsoft_client_secret: { value: "ms-secret", with: { microsoft_client_id: "ms-id" } },
  microsoft_tenant: { value: "organizations", with: { microsoft_client_id: "ms-id" } },
  google_client_id: { value: "g-id", with: { google_client_secret: "g-secret" } },
  google_client_secret: { value: "g-secret", with: { google_client_id: "g-id" } },
  oauth_providers_file: { value: providersJson },
};

const toml = (values: Record<string, string>) => Object.entries(values).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n");
const asEnv = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [envName(SETTINGS.find((r) => r.name === k)!), v]));

function problem(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("the settings file", () => {
  for (const row of SETTINGS.filter((r) => !r.notInFile)) {
    test(`${row.name}: read from the file exactly as from ${envName(row)}`, () => {
      const sample = SAMPLES[row.name];
      expect(sample, `add a sample value for ${row.name}`).toBeDefined();
      const values = { ...sample!.with, [row.name]: sample!.value };
      const { dir } = dataDirWith(toml(values));
      const base = { MAILBOX_MCP_DATA_DIR: dir };
      const fromFile = parseSettings([], base);
      const fromEnv = parseSettings([], { ...base, ...asEnv(values) });
      expect(fromFile).toEqual(fromEnv);
      expect(fromFile).not.toEqual(parseSettings([], { MAILBOX_MCP_DATA_DIR: join(root, "empty") }));
      expect(resolveSources([], base, () => {}).sourceOf(row)).toBe("file");
    });
  }

  test("TOML types: lists, booleans and numbers as the environment's strings", () => {
    const { dir } = dataDirWith(`allowed_mailboxes = ["@example.org", "imap.example.org"]\ntrust_proxy = true\nport = 9001\nopen_registration = false`);
    const s = parseSettings([], { MAILBOX_MCP_DATA_DIR: dir });
    expect(s.allowedMailboxes).toEqual({ anyone: false, addresses: new Set(), domains: new Set(["example.org"]), hosts: new Set(["imap.example.org"]) });
    expect([s.trustProxy, s.port, s.openRegistration]).toEqual([true, 9001, false]);
  });

  test("precedence: flag over environment over file over default", () => {
    const { dir } = dataDirWith(`port = 1111`);
    const env = { MAILBOX_MCP_DATA_DIR: dir, MAILBOX_MCP_PORT: "2222" };
    expect(parseSettings(["--port", "3333"], env).port).toBe(3333);
    expect(parseSettings([], env).port).toBe(2222);
    expect(parseSettings([], { MAILBOX_MCP_DATA_DIR: dir }).port).toBe(1111);
    expect(parseSettings([], { MAILBOX_MCP_DATA_DIR: join(root, "none") }).port).toBe(8787);
  });

  test("--config, --config-file and MAILBOX_MCP_CONFIG_FILE name another file; a named file must exist", () => {
    const { path } = dataDirWith(`host = "10.0.0.1"`);
    const elsewhere = { MAILBOX_MCP_DATA_DIR: join(root, "none") };
    expect(parseSettings(["--config", path], elsewhere).host).toBe("10.0.0.1");
    expect(parseSettings([`--config-file=${path}`], elsewhere).host).toBe("10.0.0.1");
    expect(parseSettings([], { ...elsewhere, MAILBOX_MCP_CONFIG_FILE: path }).host).toBe("10.0.0.1");
    const missing = join(root, "missing.toml");
    expect(problem(() => parseSettings(["--config", missing], {}))).toBe(`${missing}: no such file (MAILBOX_MCP_CONFIG_FILE)`);
  });

  const bad: Array<[string, string, string]> = [
    ["a bad value", `send_limits = "10/m"`, `send_limits: "10/m" is not a count per hour or per day`],
    ["a bad port", `port = 0`, `port: "0" is not a port (1-65535)`],
    ["a boolean where text belongs", `host = true`, "host: must be a string"],
    ["an unknown key", `notify_grant = true`, "notify_grant: is not a setting (see mailbox-mcp --help)"],
    ["the data dir", `data_dir = "/elsewhere"`, "data_dir: cannot be set in the settings file"],
    ["half a preset", `microsoft_client_secret = "s"`, "microsoft_client_secret: is set but MAILBOX_MCP_MICROSOFT_CLIENT_ID is not"],
    ["a bad provider", `[[oauth_providers]]\nid = "microsoft"`, `oauth_providers[0].id "microsoft" is a built-in provider's id`],
    ["providers twice", `oauth_providers_file = "${providersJson}"\n[[oauth_providers]]\nid = "x"`, "oauth_providers: and oauth_providers_file are both set"],
  ];
  for (const [what, text, expected] of bad) {
    test(`refused, one line naming the file and the key: ${what}`, () => {
      const { dir, path } = dataDirWith(text);
      const msg = problem(() => parseSettings([], { MAILBOX_MCP_DATA_DIR: dir }));
      expect(msg).toStartWith(`${path}: `);
      expect(msg).toContain(expected);
      expect(msg).not.toContain("\n");
    });
  }

  test("not TOML: refused without quoting the text, which may be an unquoted secret", () => {
    const { dir, path } = dataDirWith(`client_secret = s3cr3t-never-printed`);
    const msg = problem(() => parseSettings([], { MAILBOX_MCP_DATA_DIR: dir }));
    expect(msg).toBe(`${path}: cannot be read as TOML (not valid TOML)`);
  });

  test("[[oauth_providers]] tables are the providers file's entries", () => {
    const { dir } = dataDirWith(providerTable(acme));
    const inline = parseSettings([], { MAILBOX_MCP_DATA_DIR: dir }).oauth.file;
    expect(inline).toEqual(parseSettings([], { MAILBOX_MCP_OAUTH_PROVIDERS_FILE: providersJson, MAILBOX_MCP_DATA_DIR: join(root, "none") }).oauth.file);
  });

  test("[[oauth_providers]] takes an issuer through the providers file's check: a URL, kept exactly; anything else names the key", () => {
    const table = (issuer: string) => providerTable({ ...acme, issuer });
    const good = dataDirWith(table("https://id.acme.example/tenant"));
    expect(parseSettings([], { MAILBOX_MCP_DATA_DIR: good.dir }).oauth.file[0]!.issuer).toBe("https://id.acme.example/tenant");
    expect(parseSettings([], { MAILBOX_MCP_DATA_DIR: dataDirWith(providerTable(acme)).dir }).oauth.file[0]!.issuer).toBeNull();
    const bad = dataDirWith(table("not a url"));
    const msg = problem(() => parseSettings([], { MAILBOX_MCP_DATA_DIR: bad.dir }));
    expect(msg).toStartWith(`${bad.path}: `);
    expect(msg).toContain("issuer");
  });

  test("a secret in a file others can read: a warning, not a stop; none for 0600 or no secret", () => {
    const warnings: string[] = [];
    const open = dataDirWith(`client_secret = "${"x".repeat(40)}"`, 0o644);
    expect(parseSettings([], { MAILBOX_MCP_DATA_DIR: open.dir }, (m) => warnings.push(m)).clientSecret).toBe("x".repeat(40));
    expect(warnings).toEqual([`${open.path} holds a secret and anyone on this machine can read it: chmod 600 ${open.path}`]);
    parseSettings([], { MAILBOX_MCP_DATA_DIR: dataDirWith(`client_secret = "${"x".repeat(40)}"`).dir }, (m) => warnings.push(m));
    parseSettings([], { MAILBOX_MCP_DATA_DIR: dataDirWith(`port = 9000`, 0o644).dir }, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
  });
});

describe("mailbox-mcp config", () => {
  test("every setting with its source; no secret printed, from any source", () => {
    const secrets = { client_secret: "S1".repeat(20), google_client_secret: "S2-google", microsoft_client_secret: "S3-microsoft" };
    const key = Buffer.alloc(32, 9).toString("base64");
    const { dir } = dataDirWith([
      toml({ ...secrets, google_client_id: "g", microsoft_client_id: "m", port: "9100", database_url: "postgres://mail:S4-db-password@db.example/m" }),
      `[[oauth_providers]]\n${Object.entries({ ...acme, client_secret: "S5-provider" }).filter(([, v]) => typeof v !== "object" || Array.isArray(v)).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n")}`,
      `imap = { host = "imap.acme.example", port = 993, security = "tls" }\nsmtp = { host = "smtp.acme.example", port = 465, security = "tls" }`,
    ].join("\n"));
    const out = formatSettings(resolveSources(["--host", "0.0.0.0"], { MAILBOX_MCP_DATA_DIR: dir, MAILBOX_MCP_SECRET_KEY: key, MAILBOX_MCP_PORT: "9200" }, () => {}));
    for (const secret of [...Object.values(secrets), key, "S4-db-password", "S5-provider"]) expect(out).not.toContain(secret);
    expect(out).toContain(`host = "0.0.0.0"  # flag`);
    expect(out).toContain(`port = 9200  # env`);
    expect(out).toContain(`secret_key = "********"  # env`);
    expect(out).toContain(`database_url = "postgres://mail:********@db.example/m"  # file`);
    expect(out).toContain(`send_limits = 30/h,200/d  # default`);
    expect(out).toContain("# [[oauth_providers]]: acme  # file");
    expect(out.trim().split("\n").filter((l) => !l.startsWith("#"))).toHaveLength(SETTINGS.length);
  });
});

describe("the start log's hint repeats the flags, never a secret one", () => {
  test("secret flags dropped with their values, others kept", () => {
    expect(flagsOf(["--data-dir", "/d", "--client-secret", "S".repeat(40), "--open-registration", `--secret-key=${"k".repeat(44)}`, "--port", "1"]))
      .toBe(" --data-dir /d --open-registration --port 1");
  });
});
