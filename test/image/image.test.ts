// The container image as a homelab user runs it (issue 46): built by scripts/build-image.ts from an
// executable compiled once here, started with podman on the host network so it reaches the harness
// Dovecot and SMTP server on loopback. Run alone: bun run test test/image/image.test.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { $ } from "bun";
import { chownSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";
import { freePort } from "../support/dovecot.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { podman, removeAll, ULIMITS } from "../support/podman.ts";
import { until } from "../support/until.ts";
import { allowedImageFile } from "./contents.ts";
import { recentMail, signIn } from "./live-flow.ts";
import { testImage } from "./test-image.ts";
import { via } from "./via.ts";

const run = `i46-${process.pid}`;
const containers: string[] = [];
const volume = `${run}-data`;
let h: Harness;
let exeSize = 0;
let work = "";
let TAG = "";

/** Starts a container of the test image on the host network, on its own port; waits for /health. */
async function start(name: string, port: number, extra: string[] = []): Promise<{ base: string; ms: number }> {
  const base = `http://localhost:${port}`;
  containers.push(name);
  const started = performance.now();
  await podman("run", "-d", "--name", name, "--network", "host", ...ULIMITS, "--health-interval", "disable",
    "-e", `MAILBOX_MCP_PORT=${port}`, "-e", `MAILBOX_MCP_BASE_URL=${base}`, "-e", "MAILBOX_MCP_ALLOW_PRIVATE_HOSTS=true",
    "-e", `MAILBOX_MCP_CLIENT_ID=${TEST_CLIENT_ID}`, "-e", `MAILBOX_MCP_CLIENT_SECRET=${TEST_CLIENT_SECRET}`, ...extra, TAG);
  await until(async () => fetch(`${base}/health`).then((r) => r.ok, () => false),
    { what: `container ${name} to answer /health`, timeoutMs: 15_000 });
  return { base, ms: performance.now() - started };
}

/** SIGTERM to the server (PID 1); resolves to its exit code and how long it took. */
async function terminate(name: string): Promise<{ code: number; ms: number }> {
  const started = performance.now();
  await podman("kill", "--signal", "TERM", name);
  const code = Number(await podman("wait", name));
  return { code, ms: performance.now() - started };
}

beforeAll(async () => {
  h = await getHarness();
  ({ tag: TAG, exeSize, work } = await testImage());
}, 180_000);

afterAll(async () => {
  await removeAll(containers, [volume]);
}, 60_000);

describe("the container image", () => {
  test("labels, user, env, volume, healthcheck; ≤ 1.2 × the executable; nothing but the executable, glibc, certificates and tzdata", async () => {
    const [info] = JSON.parse(await podman("image", "inspect", TAG)) as Array<Record<string, any>>;
    const labels = info!.Config.Labels as Record<string, string>;
    expect(labels).toMatchObject({
      "org.opencontainers.image.version": pkg.version, "org.opencontainers.image.licenses": "MIT",
      "org.opencontainers.image.source": "https://example.test/mailbox-mcp",
    });
    expect(labels["org.opencontainers.image.revision"]).toMatch(/^[0-9a-f]{12}(-dirty)?$|^unknown$/);
    expect(info!.Config.User).toBe("10001:10001");
    expect(info!.Config.Env).toContain("MAILBOX_MCP_HOST=0.0.0.0");
    expect(info!.Config.Env).toContain("MAILBOX_MCP_DATA_DIR=/data");
    expect(Object.keys(info!.Config.Volumes)).toEqual(["/data"]);
    expect(info!.Healthcheck.Test).toEqual(["CMD", "/usr/local/bin/mailbox-mcp", "healthcheck"]);
    console.log(`image: ${(info!.Size / 1e6).toFixed(1)} MB, executable ${(exeSize / 1e6).toFixed(1)} MB (×${(info!.Size / exeSize).toFixed(3)})`);
    expect(info!.Size).toBeLessThanOrEqual(1.2 * exeSize);
    const created = await podman("create", TAG);
    try {
      await podman("export", "-o", join(work, "export.tar"), created);
      const files = (await $`tar -tf ${join(work, "export.tar")}`.quiet().text()).trim().split("\n");
      expect(files.filter((f) => !allowedImageFile(f))).toEqual([]);
      expect(files).toContain("usr/local/bin/mailbox-mcp");
      expect(files.some((f) => /^(usr\/)?bin\/(sh|bash|busybox)$/.test(f))).toBe(false);
    } finally {
      await podman("rm", created);
    }
  });

  let token = "";
  let port = 0;

  test("starts and answers /health within 2 s; its HEALTHCHECK passes; OAuth flow and a tool call against the test Dovecot", async () => {
    port = await freePort();
    const { base, ms } = await start(`${run}-a`, port, ["-v", `${volume}:/data`]);
    console.log(`image: container start to /health ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(2000);
    await podman("healthcheck", "run", `${run}-a`);
    expect((await (await fetch(`${base}/oauth/meta`)).json()) as object).toMatchObject({ issuer: base });
    token = await signIn(via(base), h);
    const found = await recentMail(via(base), token);
    expect([found.isError, found.content]).toEqual([undefined, expect.anything()]);
    expect(found.structuredContent).toHaveProperty("emails");
  });

  test("SIGTERM: exit 0 within 10 s; started again on the same volume, the grant still works", async () => {
    const stopped = await terminate(`${run}-a`);
    console.log(`image: SIGTERM to exit ${Math.round(stopped.ms)} ms`);
    expect(stopped).toMatchObject({ code: 0 });
    expect(stopped.ms).toBeLessThan(10_000);
    await podman("start", `${run}-a`);
    const base = `http://localhost:${port}`;
    await until(async () => fetch(`${base}/health`).then((r) => r.ok, () => false), { what: "the restarted container", timeoutMs: 15_000 });
    expect((await recentMail(via(base), token)).isError).toBeFalsy();
    expect((await terminate(`${run}-a`)).code).toBe(0);
  });

  test("--user 12345:12345 and --read-only: only the mounted /data is written, owned by that user", async () => {
    const data = join(work, "data-12345");
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, 12345, 12345);
    const name = `${run}-ro`;
    const { base } = await start(name, await freePort(), ["--user", "12345:12345", "--read-only", "--read-only-tmpfs=false", "-v", `${data}:/data`]);
    await signIn(via(base), h); // throws unless the code is issued and redeemed (200)
    const written = readdirSync(data);
    expect(written).toContain("secret.key");
    for (const f of written) expect(statSync(join(data, f)).uid).toBe(12345);
    // Nothing changed outside the volume but the files the runtime itself mounts (/etc/hosts, resolv.conf…).
    const changed = (await podman("diff", name)).split("\n").filter((l) => l && !/^[AC] \/(etc|run)(\/(hosts|hostname|resolv\.conf|\.containerenv))?$/.test(l));
    expect(changed).toEqual([]);
    expect((await terminate(name)).code).toBe(0);
  });
});
