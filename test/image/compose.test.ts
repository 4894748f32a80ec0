// The compose files brought up and down with podman-compose 1.0.3 (issue 46): compose.yaml alone,
// with compose.caddy.yaml (HTTPS by Caddy's internal CA: no public certificate can be issued
// offline), and compose.postgres.yaml (two instances on one Postgres behind haproxy). No registry is
// reachable here, so Postgres, haproxy and Caddy are local stand-ins (stand-ins.ts). Every port is
// published on 127.0.0.1. The containers sit on a bridge network, which cannot reach the harness's
// Dovecot on host loopback: the mailbox sign-in is covered by image.test.ts, not here.
// Run alone: bun run test test/image/compose.test.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/dovecot.ts";
import { podman } from "../support/podman.ts";
import { until } from "../support/until.ts";
import { authorize, authorizeQuery, newVerifier, type Handler } from "../oauth/flow.ts";
import { ComposeProject } from "./compose.ts";
import { standInImage } from "./stand-in-image.ts";
import { CADDY, HAPROXY, POSTGRES } from "./stand-ins.ts";
import { testImage } from "./test-image.ts";
import { via } from "./via.ts";

const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "compose-"));
const projects: Array<[ComposeProject, string[]]> = [];
const images: Record<string, string> = {};

beforeAll(async () => {
  const [app, postgres, haproxy, caddy] = await Promise.all([testImage(), standInImage(POSTGRES), standInImage(HAPROXY), standInImage(CADDY)]);
  Object.assign(images, { MAILBOX_MCP_IMAGE: app.tag, POSTGRES_IMAGE: postgres, HAPROXY_IMAGE: haproxy, CADDY_IMAGE: caddy });
}, 180_000);

afterAll(async () => {
  for (const [p, volumes] of projects) await p.remove(volumes);
}, 120_000);

function project(suffix: string, files: string[], env: Record<string, string>, volumes: string[]): ComposeProject {
  const p = new ComposeProject(`i46c-${process.pid}-${suffix}`, files, { ...images, ...env });
  projects.push([p, volumes]);
  return p;
}

const healthy = (url: string, init?: RequestInit) => async () => fetch(url, init).then((r) => r.ok, () => false);

/** The client the service made itself in its data dir (what `mailbox-mcp client` prints). */
async function generatedClient(container: string): Promise<string> {
  const file = join(work, `${container}-client.json`);
  await podman("cp", `${container}:/data/client.json`, file);
  return (JSON.parse(readFileSync(file, "utf8")) as { client_id: string }).client_id;
}

/** The sign-in page for `clientId` (its registered redirect), from each of `pages`: their statuses. */
async function authorizePages(clientId: string, pages: Handler[]): Promise<number[]> {
  const query = authorizeQuery(newVerifier(), { client_id: clientId });
  return Promise.all(pages.map(async (page) => {
    const res = await authorize(page, query);
    expect(await res.text()).toContain('name="request_id"');
    return res.status;
  }));
}

async function downRemovesEverything(p: ComposeProject): Promise<void> {
  const states = await p.containers();
  expect(states).toEqual(Object.fromEntries(Object.keys(states).map((n) => [n, "Up"])));
  const down = await p.run("down");
  expect(down.exitCode).toBe(0);
  expect(await p.containers()).toEqual({});
}

describe("compose", () => {
  test("compose.yaml alone: published on 127.0.0.1 only; health, metadata and the authorization page; down removes it", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const p = project("alone", ["compose.yaml"], { MAILBOX_MCP_PUBLISH_PORT: String(port), MAILBOX_MCP_BASE_URL: base }, ["mailbox-data"]);
    await p.up();
    await until(healthy(`${base}/health`), { what: "compose.yaml's service on its published port", timeoutMs: 30_000 });
    expect(await podman("port", `${p.name}_mailbox-mcp_1`)).toBe(`8787/tcp -> 127.0.0.1:${port}`);
    expect((await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as object).toMatchObject({ issuer: base });
    expect(await authorizePages(await generatedClient(`${p.name}_mailbox-mcp_1`), [via(base)])).toEqual([200]);
    await downRemovesEverything(p);
  }, 120_000);

  test("with compose.caddy.yaml: https through Caddy (its internal CA trusted, nothing else), issuer https://DOMAIN, http redirects", async () => {
    const [http, https, direct] = [await freePort(), await freePort(), await freePort()];
    const domain = "mail-mcp.compose.test";
    // The shipped site block, under global options that issue from Caddy's own CA instead of ACME.
    const caddyfile = join(work, "Caddyfile");
    writeFileSync(caddyfile, `{\n\tlocal_certs\n\tskip_install_trust\n}\n${readFileSync(join(ROOT, "deploy/Caddyfile"), "utf8")}`);
    const p = project("caddy", ["compose.yaml", "compose.caddy.yaml"], {
      MAILBOX_MCP_DOMAIN: domain, MAILBOX_MCP_PUBLISH_PORT: String(direct), CADDYFILE: caddyfile,
      CADDY_HTTP_PUBLISH: `127.0.0.1:${http}`, CADDY_HTTPS_PUBLISH: `127.0.0.1:${https}`,
    }, ["mailbox-data", "caddy-data"]);
    await p.up();
    const ca = join(work, "caddy-root.crt");
    await until(async () => (await podman("cp", `${p.name}_caddy_1:/data/caddy/pki/authorities/local/root.crt`, ca).then(() => true, () => false)),
      { what: "Caddy's internal CA", timeoutMs: 30_000 });
    // Connect to 127.0.0.1 while naming the domain (SNI and Host), as a client resolving it would.
    const tls = { ca: readFileSync(ca, "utf8"), serverName: domain, checkServerIdentity: () => undefined };
    const secure = (path: string) => fetch(`https://127.0.0.1:${https}${path}`, { headers: { Host: domain }, tls, redirect: "manual" } as RequestInit);
    await until(async () => secure("/health").then((r) => r.ok, () => false), { what: "https through Caddy", timeoutMs: 30_000 });
    expect((await (await secure("/.well-known/oauth-authorization-server")).json()) as object).toMatchObject({ issuer: `https://${domain}` });
    const untrusted = await fetch(`https://127.0.0.1:${https}/health`, { headers: { Host: domain }, tls: { serverName: domain } } as RequestInit).then(() => "accepted", () => "refused");
    expect(untrusted).toBe("refused");
    const redirect = await fetch(`http://127.0.0.1:${http}/health`, { headers: { Host: domain }, redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, `https://${domain}/health`]);
    await downRemovesEverything(p);
  }, 120_000);

  // Unset, not empty: podman-compose 1.0.3 treats `${X:?…}` as `${X?…}` (an empty value passes).
  test("compose.postgres.yaml: refuses to start without the shared secrets, naming them", async () => {
    const p = project("missing", ["compose.postgres.yaml"], {}, []);
    const r = await p.run("up", "-d");
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/set (POSTGRES_PASSWORD|MAILBOX_MCP_SECRET_KEY|MAILBOX_MCP_CLIENT_ID|MAILBOX_MCP_CLIENT_SECRET)/);
    expect(await p.containers()).toEqual({});
  });

  test("compose.postgres.yaml: two instances on one Postgres behind haproxy; both serve the same client; down removes them", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const clientId = `compose-${process.pid}`;
    const p = project("pg", ["compose.postgres.yaml"], {
      MAILBOX_MCP_PUBLISH_PORT: String(port), MAILBOX_MCP_BASE_URL: base, POSTGRES_PASSWORD: crypto.randomUUID(),
      MAILBOX_MCP_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
      MAILBOX_MCP_CLIENT_ID: clientId, MAILBOX_MCP_CLIENT_SECRET: crypto.randomUUID() + crypto.randomUUID(),
    }, ["postgres-data"]);
    await p.up();
    // Each instance answers on its own address once Postgres took it (the first starts may find it
    // not yet listening: they exit and their restart policy brings them back).
    const instances = await Promise.all(["mailbox-mcp-1", "mailbox-mcp-2"].map(async (s) => `http://${await p.address(s)}:8787`));
    for (const i of instances) await until(healthy(`${i}/health`), { what: `${i} on the shared store`, timeoutMs: 60_000 });
    await until(healthy(`${base}/health`), { what: "haproxy in front of both", timeoutMs: 30_000 });
    expect((await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as object).toMatchObject({ issuer: base });
    expect(await authorizePages(clientId, [via(base), ...instances.map((i) => via(i))])).toEqual([200, 200, 200]);
    await downRemovesEverything(p);
  }, 180_000);
});
