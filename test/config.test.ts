import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkServeSettings, ConfigError, parseSettings } from "../src/config.ts";
import { prepareDataDir } from "../src/store/data-dir.ts";

const dir = () => mkdtempSync(join(tmpdir(), "cfg-"));

describe("parseSettings", () => {
  test("defaults", () => {
    const s = parseSettings([], { HOME: "/home/u" });
    expect(s.host).toBe("127.0.0.1");
    expect(s.port).toBe(8787);
    expect(s.baseUrl).toBe("http://localhost:8787");
    expect(s.dataDir).toBe("/home/u/.local/share/mailbox-mcp");
    expect(s.clientHosts).toEqual(["claude.ai", "claude.com"]);
    expect(s.allowPrivateHosts).toBe(false);
    expect(s.openRegistration).toBe(false);
    expect(s.sendLimits).toEqual({ perHour: 30, perDay: 200 });
  });

  test("send limits: per hour and per day, either alone, nothing else", () => {
    expect(parseSettings([], { MAILBOX_MCP_SEND_LIMITS: "10/h, 50/d" }).sendLimits).toEqual({ perHour: 10, perDay: 50 });
    expect(parseSettings([], { MAILBOX_MCP_SEND_LIMITS: "500/D" }).sendLimits).toEqual({ perHour: 30, perDay: 500 });
    for (const bad of ["10", "0/h", "10/m", "10/h,20/h", "100/h,50/d", "1000000/d"]) {
      expect(() => parseSettings([], { MAILBOX_MCP_SEND_LIMITS: bad }), bad).toThrow(/^MAILBOX_MCP_SEND_LIMITS: /);
    }
  });

  test("open registration: the environment, the bare flag, and --open-registration=false over the environment", () => {
    expect(parseSettings([], { MAILBOX_MCP_OPEN_REGISTRATION: "true" }).openRegistration).toBe(true);
    const flagged = parseSettings(["--open-registration", "--port", "9001"], {});
    expect(flagged.openRegistration).toBe(true);
    expect(flagged.port).toBe(9001); // the switch takes no value: the next flag is read as usual
    expect(parseSettings(["--open-registration=false"], { MAILBOX_MCP_OPEN_REGISTRATION: "true" }).openRegistration).toBe(false);
  });

  test("allowed mailboxes: unset is null; a list is parsed; with open registration serve needs one (* says anyone)", () => {
    expect(parseSettings([], {}).allowedMailboxes).toBeNull();
    const s = parseSettings([], { MAILBOX_MCP_ALLOWED_MAILBOXES: "me@example.com, @example.org,imap.example.net" });
    expect(s.allowedMailboxes).toEqual({
      anyone: false, addresses: new Set(["me@example.com"]), domains: new Set(["example.org"]), hosts: new Set(["imap.example.net"]),
    });
    expect(() => checkServeSettings(parseSettings(["--open-registration"], {}))).toThrow(/MAILBOX_MCP_ALLOWED_MAILBOXES: must be set/);
    expect(() => checkServeSettings(parseSettings(["--open-registration"], { MAILBOX_MCP_ALLOWED_MAILBOXES: "*" }))).not.toThrow();
    expect(() => checkServeSettings(parseSettings([], {}))).not.toThrow(); // the one configured client: as before
  });

  test("client metadata documents: off by default, the environment or the bare flag turn them on", () => {
    expect(parseSettings([], {}).clientMetadataDocuments).toBe(false);
    expect(parseSettings([], { MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS: "yes" }).clientMetadataDocuments).toBe(true);
    expect(parseSettings(["--client-metadata-documents"], {}).clientMetadataDocuments).toBe(true);
    // Like open registration, they let strangers bring their own app: serve needs the allowlist.
    expect(() => checkServeSettings(parseSettings(["--client-metadata-documents"], {})))
      .toThrow(/MAILBOX_MCP_ALLOWED_MAILBOXES: must be set when MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS is on/);
    expect(() => checkServeSettings(parseSettings(["--client-metadata-documents"], { MAILBOX_MCP_ALLOWED_MAILBOXES: "@example.org" }))).not.toThrow();
  });

  test("flags win over the environment; XDG_DATA_HOME is honoured", () => {
    const s = parseSettings(["--port", "9000", "--base-url=https://mail.example.com/"], {
      MAILBOX_MCP_PORT: "8000", XDG_DATA_HOME: "/xdg",
    });
    expect(s.port).toBe(9000);
    expect(s.baseUrl).toBe("https://mail.example.com");
    expect(s.dataDir).toBe("/xdg/mailbox-mcp");
  });

  const bad: Array<[string, Record<string, string>, string[]]> = [
    ["MAILBOX_MCP_PORT", { MAILBOX_MCP_PORT: "70000" }, []],
    ["MAILBOX_MCP_PORT", { MAILBOX_MCP_PORT: "abc" }, []],
    ["MAILBOX_MCP_BASE_URL", { MAILBOX_MCP_BASE_URL: "mail.example.com" }, []],
    ["MAILBOX_MCP_BASE_URL", { MAILBOX_MCP_BASE_URL: "https://x.example/sub" }, []],
    ["MAILBOX_MCP_SECRET_KEY", { MAILBOX_MCP_SECRET_KEY: Buffer.alloc(16).toString("base64") }, []],
    ["MAILBOX_MCP_ALLOW_PRIVATE_HOSTS", { MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "maybe" }, []],
    ["MAILBOX_MCP_OPEN_REGISTRATION", {}, ["--open-registration=sometimes"]],
    ["MAILBOX_MCP_ALLOWED_MAILBOXES", { MAILBOX_MCP_ALLOWED_MAILBOXES: "*,me@example.com" }, []],
    ["MAILBOX_MCP_ALLOWED_MAILBOXES", { MAILBOX_MCP_ALLOWED_MAILBOXES: "not an address@" }, []],
    ["MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS", { MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS: "maybe" }, []],
    ["MAILBOX_MCP_CLIENT_HOSTS", { MAILBOX_MCP_CLIENT_HOSTS: "only-one.example" }, []],
    ["MAILBOX_MCP_CLIENT_SECRET", { MAILBOX_MCP_CLIENT_SECRET: "s".repeat(31) }, []],
    ["MAILBOX_MCP_DATABASE_URL", { MAILBOX_MCP_DATABASE_URL: "mysql://db.example/mail" }, []],
    ["MAILBOX_MCP_DATABASE_URL", { MAILBOX_MCP_DATABASE_URL: "not a url" }, []],
    ["MAILBOX_MCP_DATABASE_URL", {}, ["--database-url", "postgres://db.example"]],
    ["--nope", {}, ["--nope", "1"]],
  ];
  for (const [key, env, args] of bad) {
    test(`a bad ${key} stops start-up naming the key`, () => {
      let err: unknown;
      try {
        parseSettings(args, env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message.startsWith(key)).toBe(true);
    });
  }

  test("a 32-byte base64 key is accepted", () => {
    const key = Buffer.alloc(32, 9).toString("base64");
    expect(parseSettings([], { MAILBOX_MCP_SECRET_KEY: key }).secretKey?.length).toBe(32);
  });
});

describe("prepareDataDir", () => {
  test("first start creates dir 0700, key 0600 and a client; a restart reuses them", () => {
    const d = join(dir(), "data");
    const settings = parseSettings(["--data-dir", d], {});
    const first = prepareDataDir(settings, "1", () => {});
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(join(d, "secret.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(d, "client.json")).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(d, "secret.key"), "utf8").trim(), "base64").length).toBe(32);
    const second = prepareDataDir(settings, "1", () => {});
    expect(second.clientId).toBe(first.clientId);
    expect(second.clientSecret).toBe(first.clientSecret);
    expect(Buffer.from(second.secretKey).equals(Buffer.from(first.secretKey))).toBe(true);
  });

  test("a looser existing dir is tightened with a warning", () => {
    const d = join(dir(), "loose");
    mkdirSync(d, { mode: 0o755 });
    chmodSync(d, 0o755);
    const warnings: string[] = [];
    prepareDataDir(parseSettings(["--data-dir", d], {}), "1", (w) => warnings.push(w));
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(warnings.join()).toContain("tightened");
  });

  test("configured client id/secret and key win over the files", () => {
    const d = join(dir(), "cfg");
    const key = Buffer.alloc(32, 4).toString("base64");
    const c = prepareDataDir(parseSettings(["--data-dir", d], {
      MAILBOX_MCP_CLIENT_ID: "my-client", MAILBOX_MCP_CLIENT_SECRET: "s".repeat(32), MAILBOX_MCP_SECRET_KEY: key,
    }), "1", () => {});
    expect(c.clientId).toBe("my-client");
    expect(c.secretKey[0]).toBe(4);
  });

  const shared = {
    MAILBOX_MCP_DATABASE_URL: "postgres://mail:pw@db.example:5432/mailbox",
    MAILBOX_MCP_SECRET_KEY: Buffer.alloc(32, 6).toString("base64"),
    MAILBOX_MCP_CLIENT_ID: "shared-client",
    MAILBOX_MCP_CLIENT_SECRET: "t".repeat(40),
  };

  test("with a database URL: key and client from configuration, no data dir created", () => {
    const d = join(dir(), "never-created");
    const c = prepareDataDir(parseSettings(["--data-dir", d], shared), "1", () => {});
    expect(c.databaseUrl).toBe(shared.MAILBOX_MCP_DATABASE_URL);
    expect(c.clientId).toBe("shared-client");
    expect(c.secretKey[0]).toBe(6);
    expect(() => statSync(d)).toThrow();
    expect(parseSettings(["--database-url", "postgresql://db.example/m"], {}).databaseUrl).toBe("postgresql://db.example/m");
  });

  for (const missing of ["MAILBOX_MCP_SECRET_KEY", "MAILBOX_MCP_CLIENT_ID", "MAILBOX_MCP_CLIENT_SECRET"] as const) {
    test(`with a database URL, a missing ${missing} stops start-up naming it, not a generated file`, () => {
      const d = join(dir(), "none");
      const env: Record<string, string> = { ...shared };
      delete env[missing];
      expect(() => prepareDataDir(parseSettings(["--data-dir", d], env), "1", () => {})).toThrow(new RegExp(`^${missing}: is required with MAILBOX_MCP_DATABASE_URL`));
      expect(() => statSync(d)).toThrow();
    });
  }

  test("an unwritable data dir stops start-up naming the key", () => {
    const file = join(dir(), "file");
    writeFileSync(file, "x");
    expect(() => prepareDataDir(parseSettings(["--data-dir", join(file, "sub")], {}), "1", () => {}))
      .toThrow(/^MAILBOX_MCP_DATA_DIR/);
  });
});
