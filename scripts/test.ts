// bun run test [bun test args…]: makes sure the real servers the integration tests need are
// installed (Dovecot, Chromium for the browser tests, Postgres and haproxy for the cluster tests,
// podman, runc, podman-compose, CNI's dnsname, caddy, qemu-user and arm64 glibc for the container image tests),
// then runs `bun test`.
// Nothing is mocked away: without Dovecot the suite would fail, so we install it, saying so.
import { $ } from "bun";
import { existsSync } from "node:fs";

import { postgresBin } from "../test/support/postgres.ts";

const NEEDED: Array<{ bin: string; pkg: string; why: string; present?: () => boolean }> = [
  { bin: "dovecot", pkg: "dovecot-imapd", why: "the IMAP server the integration tests run against" },
  { bin: "chromium", pkg: "chromium", why: "the headless browser that tests the setup form" },
  { bin: "initdb", pkg: "postgresql", why: "the shared store of the multi-instance tests", present: () => postgresBin() !== null },
  { bin: "haproxy", pkg: "haproxy", why: "the load balancer in front of the multi-instance tests" },
  { bin: "podman", pkg: "podman", why: "builds and runs the container image (test/image)" },
  { bin: "runc", pkg: "runc", why: "the container runtime that works on cgroup v1 hybrid hosts, where crun does not" },
  { bin: "podman-compose", pkg: "podman-compose", why: "brings compose.yaml up in test/image" },
  { bin: "caddy", pkg: "caddy", why: "the HTTPS proxy of the compose test's caddy setup" },
  { bin: "qemu-aarch64-static", pkg: "qemu-user-static", why: "starts the arm64 image's executable on this amd64 machine (test/image/arm64.test.ts)" },
  { bin: "aarch64-glibc", pkg: "libc6-arm64-cross", why: "the arm64 image's loader and glibc", present: () => existsSync("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1") },
  { bin: "dnsname", pkg: "golang-github-containernetworking-plugin-dnsname", why: "service names on compose networks (podman's CNI backend)", present: () => existsSync("/usr/lib/cni/dnsname") },
];

async function ensureInstalled(): Promise<void> {
  const found = (n: (typeof NEEDED)[number]) => n.present?.() ?? !!Bun.which(n.bin, { PATH: `${process.env.PATH}:/usr/sbin:/usr/bin` });
  const missing = NEEDED.filter((n) => !found(n));
  if (missing.length === 0) return;
  for (const m of missing) console.log(`Installing ${m.pkg}: ${m.why} (apt-get)…`);
  const sudo = process.getuid?.() === 0 ? [] : Bun.which("sudo") ? ["sudo"] : null;
  if (sudo === null) {
    console.error(`Please install them first: apt-get install -y ${missing.map((m) => m.pkg).join(" ")}`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await $`${sudo} apt-get update -qq`.env(env);
  await $`${sudo} apt-get install -y -qq --no-install-recommends ${missing.map((m) => m.pkg)}`.env(env);
}

await ensureInstalled();
const args = process.argv.slice(2);
// bunfig's [test] timeout is not applied by Bun 1.4.5; the flag is (and covers hooks too).
if (!args.some((a) => a.startsWith("--timeout"))) args.unshift("--timeout", "30000");
const proc = Bun.spawn(["bun", "test", "--no-orphans", ...args], { stdio: ["inherit", "inherit", "inherit"] });
process.exit(await proc.exited);
