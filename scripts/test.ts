// bun run test [bun test args…]: makes sure the real servers the integration tests need are
// installed (Dovecot, and Chromium for the browser test), then runs `bun test`.
// Nothing is mocked away: without Dovecot the suite would fail, so we install it, saying so.
import { $ } from "bun";

const NEEDED: Array<{ bin: string; pkg: string; why: string }> = [
  { bin: "dovecot", pkg: "dovecot-imapd", why: "the IMAP server the integration tests run against" },
  { bin: "chromium", pkg: "chromium", why: "the headless browser that tests the setup form" },
];

async function ensureInstalled(): Promise<void> {
  const missing = NEEDED.filter((n) => !Bun.which(n.bin, { PATH: `${process.env.PATH}:/usr/sbin:/usr/bin` }));
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
