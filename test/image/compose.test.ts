// The compose files brought up and down with podman-compose 1.0.3 (issue 46): compose.yaml alone,
// with compose.caddy.yaml (HTTPS by Caddy's internal CA: no public certificate can be issued
// offline), and compose.postgres.yaml (two instances on one Postgres behind haproxy). No registry is
// reachable here, so Postgres, haproxy and Caddy are local stand-ins (stand-ins.ts). Every port is
// published on 127.0.0.1. Each setup goes through the whole OAuth flow and one tool call: the
// containers sit on a bridge network and cannot reach the harness's Dovecot and SMTP server on host
// loopback, so a relay listens on the network's gateway address (the host, as the containers see it)
// and the service runs with MAILBOX_MCP_ALLOW_PRIVATE_HOSTS=true from this test's environment (a
// private address with security "none", refused otherwise).
// Run alone: bun run test test/image/compose.test.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/dovecot.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { podman } from "../support/podman.ts";
import { startTcpRelay, type TcpRelay } from "../support/tcp-relay.ts";
import { until } from "../support/until.ts";
import type { Handler } from "../oauth/flow.ts";
import { ComposeProject } from "./compose.ts";
import { recentMail, signIn, type OAuthClient } from "./live-flow.ts";
import { standInImage } from "./stand-in-image.ts";
import { CADDY, HAPROXY, POSTGRES } from "./stand-ins.ts";
import { testImage } from "./test-image.ts";
import { via } from "./via.ts";

const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "compose-"));
const projects: Array<[ComposeProject, string[]]> = [];
const images: Record<string, string> = {};
const relays: TcpRelay[] = [];
let h: Harness;

beforeAll(async () => {
  h = await getHarness();
  const [app, postgres, haproxy, caddy] = await Promise.all([testImage(), standInImage(POSTGRES), standInImage(HAPROXY), standInImage(CADDY)]);
  Object.assign(images, { MAILBOX_MCP_IMAGE: app.tag, POSTGRES_IMAGE: postgres, HAPROXY_IMAGE: haproxy, CADDY_IMAGE: caddy });
}, 180_000);

afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
  for (const [p, volumes] of projects) await p.remove(volumes);
}, 120_000);

/** Only here, never in the compose files: the test's mail servers are on a private address, in clear. */
const PRIVATE_MAIL = { MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true" };

function project(suffix: string, files: string[], env: Record<string, string>, volumes: string[]): ComposeProject {
  const p = new ComposeProject(`i46c-${process.pid}-${suffix}`, files, { ...images, ...PRIVATE_MAIL, ...env });
  projects.push([p, volumes]);
  return p;
}

const healthy = (url: string, init?: RequestInit) => async () => fetch(url, init).then((r) => r.ok, () => false);

/** The client the service made itself in its data dir (what `mailbox-mcp client` prints). */
async function generatedClient(container: string): Promise<OAuthClient> {
  const file = join(work, `${container}-client.json`);
  await podman("cp", `${container}:/data/client.json`, file);
  const { client_id, client_secret } = JSON.parse(readFileSync(file, "utf8")) as { client_id: string; client_secret: string };
  return { id: client_id, secret: client_secret };
}

const HOST_NAME = "host.containers.internal";

/**
 * The setup form's mail hosts as the project's containers reach the harness: relays on the network's
 * gateway address. `used()` says whether the service connected through them (the live login did).
 */
async function mailHosts(p: ComposeProject): Promise<{ fields: Record<string, string>; used: () => boolean }> {
  const gateway = await p.gateway();
  // Both harness servers listen on 127.0.0.1 ("localhost" could resolve to ::1 first).
  const imap = await startTcpRelay(gateway, { host: "127.0.0.1", port: h.dovecot.port });
  relays.push(imap);
  const smtp = await startTcpRelay(gateway, { host: "127.0.0.1", port: h.smtp.port });
  relays.push(smtp);
  return {
    // The name podman puts in every container's /etc/hosts for that address, as a person would type it.
    fields: { imap_host: HOST_NAME, imap_port: String(imap.port), smtp_host: HOST_NAME, smtp_port: String(smtp.port) },
    used: () => imap.connections > 0,
  };
}

/** A tool call with `token` through `server` finds Alice's mail. */
async function findsMail(server: Handler, token: string): Promise<void> {
  const found = await recentMail(server, token);
  expect(found.isError).toBeFalsy();
  expect(found.structuredContent).toHaveProperty("emails");
}

async function downRemovesEverything(p: ComposeProject): Promise<void> {
  const states = await p.containers();
  expect(states).toEqual(Object.fromEntries(Object.keys(states).map((n) => [n, "Up"])));
  const down = await p.run("down");
  expect(down.exitCode).toBe(0);
  expect(await p.containers()).toEqual({});
}

describe("compose", () => {
  test("compose.yaml alone: published on 127.0.0.1 only; health, metadata, the OAuth flow with its own client and a tool call; down removes it", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const p = project("alone", ["compose.yaml"], { MAILBOX_MCP_PUBLISH_PORT: String(port), MAILBOX_MCP_BASE_URL: base }, ["mailbox-data"]);
    await p.up();
    await until(healthy(`${base}/health`), { what: "compose.yaml's service on its published port", timeoutMs: 30_000 });
    expect(await podman("port", `${p.name}_mailbox-mcp_1`)).toBe(`8787/tcp -> 127.0.0.1:${port}`);
    expect((await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as object).toMatchObject({ issuer: base });
    const mail = await mailHosts(p);
    const token = await signIn(via(base), h, { client: await generatedClient(`${p.name}_mailbox-mcp_1`), fields: mail.fields });
    expect(mail.used()).toBe(true);
    await findsMail(via(base), token);
    await downRemovesEverything(p);
  }, 120_000);

  test("with compose.caddy.yaml: https through Caddy (its internal CA trusted, nothing else), issuer https://DOMAIN, the OAuth flow and a tool call over https, http redirects", async () => {
    const [http, https, direct] = [await freePort(), await freePort(), await freePort()];
    const domain = "mail-mcp.compose.test";
    // The shipped Caddyfile, its global options told to issue from Caddy's own CA instead of ACME.
    const caddyfile = join(work, "Caddyfile");
    const shipped = readFileSync(join(ROOT, "deploy/Caddyfile"), "utf8");
    expect(shipped).toMatch(/^\{$/m);
    writeFileSync(caddyfile, shipped.replace(/^\{$/m, "{\n\tlocal_certs\n\tskip_install_trust"));
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
    const caddy = via(`https://127.0.0.1:${https}`, { headers: { Host: domain }, tls } as RequestInit);
    const secure = (path: string) => caddy.handle(new Request(`http://localhost${path}`));
    await until(async () => secure("/health").then((r) => r.ok, () => false), { what: "https through Caddy", timeoutMs: 30_000 });
    expect((await (await secure("/.well-known/oauth-authorization-server")).json()) as object).toMatchObject({ issuer: `https://${domain}` });
    const untrusted = await fetch(`https://127.0.0.1:${https}/health`, { headers: { Host: domain }, tls: { serverName: domain } } as RequestInit).then(() => "accepted", () => "refused");
    expect(untrusted).toBe("refused");
    const redirect = await fetch(`http://127.0.0.1:${http}/health`, { headers: { Host: domain }, redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, `https://${domain}/health`]);
    const mail = await mailHosts(p);
    const token = await signIn(caddy, h, { client: await generatedClient(`${p.name}_mailbox-mcp_1`), fields: mail.fields });
    expect(mail.used()).toBe(true);
    await findsMail(caddy, token);
    // Stopped after an MCP session went through it, Caddy exits by itself within its grace period
    // rather than being killed (137) when compose's stop timeout runs out.
    await podman("stop", `${p.name}_caddy_1`);
    expect(await podman("inspect", "--format", "{{.State.ExitCode}}", `${p.name}_caddy_1`)).not.toBe("137");
    await podman("start", `${p.name}_caddy_1`);
    await downRemovesEverything(p);
  }, 120_000);

  // Unset, not empty: podman-compose 1.0.3 treats `${X:?…}` as `${X?…}` (an empty value passes).
  test("compose.postgres.yaml: refuses to start without the shared secrets, naming them", async () => {
    const p = project("missing", ["compose.postgres.yaml"], {}, ["postgres-data"]);
    const r = await p.run("up", "-d");
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/set (POSTGRES_PASSWORD|MAILBOX_MCP_SECRET_KEY|MAILBOX_MCP_CLIENT_ID|MAILBOX_MCP_CLIENT_SECRET)/);
    expect(await p.containers()).toEqual({});
  });

  test("compose.postgres.yaml: two instances on one Postgres behind haproxy; the OAuth flow and a tool call through haproxy; a code issued by one instance redeemed at the other; down removes them", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const client = { id: `compose-${process.pid}`, secret: crypto.randomUUID() + crypto.randomUUID() };
    const p = project("pg", ["compose.postgres.yaml"], {
      MAILBOX_MCP_PUBLISH_PORT: String(port), MAILBOX_MCP_BASE_URL: base, POSTGRES_PASSWORD: crypto.randomUUID(),
      MAILBOX_MCP_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
      MAILBOX_MCP_CLIENT_ID: client.id, MAILBOX_MCP_CLIENT_SECRET: client.secret,
    }, ["postgres-data"]);
    await p.up();
    // Each instance answers on its own address once Postgres took it (the first starts may find it
    // not yet listening: they exit and their restart policy brings them back).
    const instances = await Promise.all(["mailbox-mcp-1", "mailbox-mcp-2"].map(async (s) => `http://${await p.address(s)}:8787`));
    for (const i of instances) await until(healthy(`${i}/health`), { what: `${i} on the shared store`, timeoutMs: 60_000 });
    await until(healthy(`${base}/health`), { what: "haproxy in front of both", timeoutMs: 30_000 });
    expect((await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as object).toMatchObject({ issuer: base });
    const mail = await mailHosts(p);
    const token = await signIn(via(base), h, { client, fields: mail.fields });
    expect(mail.used()).toBe(true);
    await findsMail(via(base), token);
    // Deterministically across instances (haproxy's round robin would only make it likely): the
    // code issued by the first, redeemed at the second, the token used at the first.
    const [one, two] = instances.map((i) => via(i)) as [Handler, Handler];
    await findsMail(one, await signIn(one, h, { client, fields: mail.fields, redeem: two }));
    await downRemovesEverything(p);
  }, 180_000);
});
