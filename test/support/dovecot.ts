// A private, throw-away Dovecot (IMAP only) for integration tests.
// Settings that avoid a trap (root users, login delays, connection caps, slow disks) say which.
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { chown } from "node:fs/promises";
import { createConnection } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { reportDovecotTrouble } from "./dovecot-log.ts";
import { freePort, probe } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";
import { until } from "./until.ts";

export interface MailUser { user: string; pass: string; email: string }
export type UserName = "alice" | "bob";
/** A message for seedBulk: raw RFC 5322 text, optionally with IMAP flags (\Seen, \Flagged...). */
export type BulkMessage = string | { raw: string; flags?: string[] };

export interface DovecotServer {
  host: "localhost";
  port: number;
  users: Record<UserName, MailUser>;
  /** DovecotOptions.extraUsers: mailbox users m0001…, each with its own password (the bench's many-mailbox row). */
  extraUsers: MailUser[];
  /** Temp dir holding dovecot.conf, dovecot.log and mail/<name>/ (Maildir++). */
  dir: string;
  /** IMAP APPEND as `user` ("alice" or her email); the folder must exist. */
  deliver(user: string, raw: string | Uint8Array, folder?: string, flags?: string[]): Promise<void>;
  /** Writes Maildir files directly, then opens the folder once so Dovecot indexes them. UIDs follow i. */
  seedBulk(user: string, folder: string, count: number, makeMessage: (i: number) => BulkMessage): Promise<void>;
  stop(): Promise<void>;
}

export type SpecialFolder = "Drafts" | "Sent" | "Trash" | "Archive" | "Junk";

export interface DovecotOptions {
  /** Namespace hierarchy separator seen by IMAP clients (on disk it is always Maildir++ "."). */
  separator?: "/" | ".";
  /**
   * Another name for a special-use folder (RFC 6154), as providers have them: { Sent: "Sent Items" }
   * makes the folder marked \Sent be called "Sent Items". The rest keep their attribute's name.
   */
  folderNames?: Partial<Record<SpecialFolder, string>>;
  timeoutMs?: number;
  /** Keep the temp dir after stop() (for debugging). Also: MAILBOX_TEST_KEEP_DIR=1. */
  keepDir?: boolean;
  /** This many more users (m0001@example.test…), and process and client limits raised to hold them all connected at once. */
  extraUsers?: number;
  /**
   * Also accept XOAUTH2 and OAUTHBEARER: an `oauth2` passdb asks this RFC 7662 introspection endpoint
   * (the fake provider's, ./fake-oauth/server.ts) whether a token is active and whose it is. The
   * password users keep working: their passdb answers PLAIN and LOGIN only.
   */
  oauth2IntrospectionUrl?: string;
  /**
   * What CAPABILITY says after login (Dovecot's imap_capability), to play a server without some
   * extensions, e.g. Courier's set: our client then takes its fallbacks (Dovecot still accepts the
   * hidden commands; we never send them).
   */
  imapCapability?: string;
  /** false: no folder carries an RFC 6154 attribute (the folders are still created, by their names). */
  specialUse?: boolean;
}

/** The extra users of DovecotOptions.extraUsers. */
export const extraUsers = (n: number): MailUser[] => Array.from({ length: n }, (_, i) => {
  const name = `m${String(i + 1).padStart(4, "0")}`;
  return { user: `${name}@example.test`, pass: `${name}-pw-Secr3t!`, email: `${name}@example.test` };
});

export const USERS: Record<UserName, MailUser> = {
  alice: { user: "alice@example.test", pass: "alice-pw-Secr3t!", email: "alice@example.test" },
  bob: { user: "bob@example.test", pass: "bob-pw-Secr3t!", email: "bob@example.test" },
};

export const INSTALL_HINT =
  'Dovecot is not installed: run "apt-get install -y dovecot-imapd" (the test script does this for you: bun run test)';

// Every dovecot we started, so a crashed run (or an exit that skipped afterAll) leaves none behind.
// Its children exit by themselves once the master is gone.
const running = new Map<Bun.Subprocess, { dir: string; keep: boolean }>();
const keepDirs = () => process.env.MAILBOX_TEST_KEEP_DIR === "1";
function killAll(): void {
  for (const [proc, { dir, keep }] of running) {
    try { proc.kill("SIGKILL"); } catch {}
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  running.clear();
}
process.on("exit", killAll);
// SIGTERM/SIGHUP kill Bun without an "exit" event; clean up, then die as the signal would have.
for (const [sig, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  process.on(sig, function onSignal() {
    killAll();
    if (process.listenerCount(sig) === 1) process.exit(code);
  });
}

interface Identity { uid: number; gid: number; user: string; group: string; loginUser: string }

// As root Dovecot refuses to run login/mail processes as root; as non-root it can only be itself.
function identity(): Identity {
  if (process.getuid?.() === 0) {
    const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("dovecot:"));
    if (!line) throw new Error('No "dovecot" system user: reinstall with "apt-get install -y dovecot-imapd"');
    const [, , uid, gid] = line.split(":");
    return { uid: Number(uid), gid: Number(gid), user: "dovecot", group: "dovecot", loginUser: "dovenull" };
  }
  const me = userInfo();
  const group = readFileSync("/etc/group", "utf8").split("\n").map((l) => l.split(":")).find((f) => Number(f[2]) === me.gid)?.[0];
  return { uid: me.uid, gid: me.gid, user: me.username, group: group ?? me.username, loginUser: me.username };
}

function dovecotBinary(): string {
  const bin = Bun.which("dovecot", { PATH: `${process.env.PATH ?? ""}:/usr/sbin:/sbin` });
  if (!bin) throw new Error(INSTALL_HINT);
  return bin;
}

export { freePort } from "./ports.ts";

type Conf = Array<[string, string | number | Conf]>;
/** Dovecot's syntax: `key = value`, and `name {` ... `}` sections, one item per line. */
const render = (c: Conf, ind = ""): string =>
  c.map(([k, v]) => (Array.isArray(v) ? `${ind}${k} {\n${render(v, ind + "  ")}${ind}}\n` : `${ind}${k} = ${v}\n`)).join("");

/** Dovecot's defaults serve 100 IMAP processes (one per connection) and 1,000 clients per service: room for `users` connected at once. */
const roomFor = (users: number): Conf => users <= 0 ? [] : [
  ["default_process_limit", users + 100], ["default_client_limit", 2 * users + 1000],
  ["service imap", [["process_limit", users + 100]]],
];

/** The oauth2 passdb (Dovecot 2.3): introspection by POST, the token's user must be the login name. */
function oauth2Passdb(dir: string, introspectionUrl: string | undefined): Conf {
  if (!introspectionUrl) return [];
  writeFileSync(join(dir, "oauth2.conf.ext"), [
    "introspection_mode = post", `introspection_url = ${introspectionUrl}`, "force_introspection = yes",
    "username_attribute = username", "active_attribute = active", "active_value = true", "",
  ].join("\n"));
  return [["passdb", [["driver", "oauth2"], ["mechanisms", "xoauth2 oauthbearer"], ["args", `${dir}/oauth2.conf.ext`]]]];
}

function config(dir: string, port: number, listen: string, id: Identity, sep: string, opts: DovecotOptions): string {
  const names = opts.folderNames ?? {};
  const special = (["Drafts", "Sent", "Trash", "Archive", "Junk"] as const).map(
    (m): [string, Conf] => [`mailbox "${names[m] ?? m}"`, [...(opts.specialUse === false ? [] : [["special_use", `\\${m}`] as [string, string]]), ["auto", "subscribe"]]],
  );
  const oauth = oauth2Passdb(dir, opts.oauth2IntrospectionUrl);
  return render([
    ...Object.entries({
      protocols: "imap", listen, base_dir: `${dir}/run`, state_dir: `${dir}/state`, log_path: `${dir}/dovecot.log`,
      instance_name: `mailbox-mcp-test-${port}`, // names the processes in ps: dovecot-mailbox-mcp-test-<port>/imap
      ssl: "no", disable_plaintext_auth: "no", auth_mechanisms: oauth.length ? "plain login xoauth2 oauthbearer" : "plain login", auth_failure_delay: 0,
      default_login_user: id.loginUser, default_internal_user: id.user, default_internal_group: id.group,
      first_valid_uid: id.uid, first_valid_gid: id.gid,
      mail_location: `maildir:${dir}/mail/%n`, mail_fsync: "never",
    }),
    // Even with auth_failure_delay = 0 a failed login waits for a 500 ms timer unless the request
    // carries "nodelay"; a failing passdb's fields are rolled back, so a no-op passdb sets it first.
    // (It also skips the anvil penalty that slowed the next login from 127.0.0.1 by 2-15 s.)
    ["passdb", [["driver", "static"], ["args", "noauthenticate nodelay=yes"]]],
    ["passdb", [["driver", "passwd-file"], ["args", `scheme=PLAIN ${dir}/passwd`], ...(oauth.length ? [["mechanisms", "plain login"] as [string, string]] : [])]],
    ...oauth,
    ["userdb", [["driver", "static"], ["args", `uid=${id.uid} gid=${id.gid} home=${dir}/mail/%n`]]],
    // mail_max_userip_connections: the default 10 is too few for parallel tests.
    ["protocol imap", [["mail_max_userip_connections", 1000], ...(opts.imapCapability ? [["imap_capability", opts.imapCapability] as [string, string]] : [])]],
    ["service anvil", [["chroot", ""]]],
    ["service imap-login", [["chroot", ""], ["service_count", 0], ["inet_listener imap", [["port", port]]], ["inet_listener imaps", [["port", 0]]]]],
    ["namespace inbox", [["inbox", "yes"], ["separator", sep], ...special]],
    ...roomFor(opts.extraUsers ?? 0),
  ]);
}

/** Resolves when the port answers with an IMAP greeting. */
function greeting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: "127.0.0.1", port });
    const done = (ok: boolean) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(1000, () => done(false));
    sock.once("error", () => done(false));
    sock.once("data", (d) => done(d.toString().startsWith("* OK")));
  });
}

async function waitReady(proc: Bun.Subprocess, port: number, dir: string, timeoutMs: number): Promise<void> {
  try {
    await until(() => {
      if (proc.exitCode !== null) throw new Error(`dovecot exited (${proc.exitCode})`);
      return greeting(port);
    }, { what: `dovecot to answer on port ${port}`, timeoutMs });
  } catch (err) {
    throw new Error(`${(err as Error).message}:\n${logTail(dir)}`);
  }
}

const logTail = (dir: string) =>
  ["master.out", "dovecot.log"].map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f, "utf8").slice(-2000)).join("\n");

// Creating thousands of small files on a disk-backed /tmp took 0.2-4.5 s per 5,000 here,
// against ~0.1 s on tmpfs: use /dev/shm when it has room (a CI container's may be only 64 MB).
function tempBase(): string {
  if (process.env.MAILBOX_TEST_TMPDIR) return process.env.MAILBOX_TEST_TMPDIR;
  try {
    const fs = statfsSync("/dev/shm");
    if (fs.bavail * fs.bsize > 1024 ** 3) return "/dev/shm";
  } catch {}
  return tmpdir();
}

function prepareDir(id: Identity, extra: MailUser[]): string {
  const dir = mkdtempSync(join(tempBase(), "mailbox-mcp-dovecot-"));
  chmodSync(dir, 0o755); // login/auth processes run as other users and must traverse it
  mkdirSync(join(dir, "mail"));
  chownSync(join(dir, "mail"), id.uid, id.gid);
  const lines = [...Object.values(USERS), ...extra].map((u) => `${u.user}:{PLAIN}${u.pass}::::::`);
  writeFileSync(join(dir, "passwd"), lines.join("\n") + "\n", { mode: 0o644 });
  return dir;
}

function spawnDovecot(dir: string): Bun.Subprocess {
  // Output goes to a file: an inherited stdout would keep the calling shell open if we died.
  const out = openSync(join(dir, "master.out"), "a");
  try {
    return Bun.spawn([dovecotBinary(), "-F", "-c", join(dir, "dovecot.conf")], { stdin: "ignore", stdout: out, stderr: out });
  } finally {
    closeSync(out);
  }
}

function resolveUser(user: string, extra: MailUser[] = []): MailUser {
  const found = Object.entries(USERS).find(([name, u]) => name === user || u.email === user.toLowerCase())?.[1] ??
    extra.find((u) => u.email === user.toLowerCase() || u.email.split("@")[0] === user);
  if (!found) throw new Error(`unknown test user ${user}`);
  return found;
}

async function stopProcess(proc: Bun.Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const killer = setTimeout(() => proc.kill("SIGKILL"), 5000); // a bound, not a wait: a stuck Dovecot is killed
  await proc.exited;
  clearTimeout(killer);
}

export async function startDovecot(opts: DovecotOptions = {}): Promise<DovecotServer> {
  refuseInUnitRun("Dovecot");
  dovecotBinary(); // fail fast with the install hint
  const id = identity();
  const sep = opts.separator ?? "/";
  const extra = extraUsers(opts.extraUsers ?? 0);
  for (let attempt = 1; ; attempt++) {
    const dir = prepareDir(id, extra);
    const port = await freePort();
    // "localhost" may resolve to ::1 elsewhere: listen there too when the machine has it.
    const listen = (await probe(port, "::1")) ? "127.0.0.1, ::1" : "127.0.0.1";
    writeFileSync(join(dir, "dovecot.conf"), config(dir, port, listen, id, sep, opts));
    const proc = spawnDovecot(dir);
    const keep = opts.keepDir ?? keepDirs();
    running.set(proc, { dir, keep });
    try {
      await waitReady(proc, port, dir, opts.timeoutMs ?? 10_000);
    } catch (err) {
      running.delete(proc);
      await stopProcess(proc);
      const raced = /Address already in use/.test(logTail(dir));
      rmSync(dir, { recursive: true, force: true });
      if (raced && attempt < 3) continue; // someone took the port between probe and bind
      throw err;
    }
    return makeServer(proc, dir, port, id, sep, keep, extra);
  }
}

function makeServer(proc: Bun.Subprocess, dir: string, port: number, id: Identity, sep: string, keep: boolean, extra: MailUser[]): DovecotServer {
  let stopping: Promise<void> | undefined;
  return {
    host: "localhost",
    port,
    users: USERS,
    extraUsers: extra,
    dir,
    deliver: (user, raw, folder = "INBOX", flags) => withImap(port, resolveUser(user, extra), (c) => append(c, raw, folder, flags)),
    seedBulk: async (user, folder, count, make) => {
      const u = resolveUser(user, extra);
      await writeMaildir(join(dir, "mail", u.email.split("@")[0]!), folder, sep, id, count, make);
      // Let Dovecot index them now (as imapflow opens it: CONDSTORE, read-write) rather than inside
      // the first test that reads them. At 20,000 messages later first opens can still cost ~1 s.
      await withImap(port, u, async (c) => { await c.mailboxOpen(folder); });
    },
    stop: () =>
      (stopping ??= (async () => {
        running.delete(proc);
        await stopProcess(proc);
        reportDovecotTrouble(dir, port);
        if (!keep) rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

async function withImap<T>(port: number, u: MailUser, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({ host: "localhost", port, secure: false, logger: false, auth: { user: u.user, pass: u.pass } });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function append(c: ImapFlow, raw: string | Uint8Array, folder: string, flags?: string[]): Promise<void> {
  const res = await c.append(folder, typeof raw === "string" ? raw : Buffer.from(raw), flags);
  if (!res) throw new Error(`APPEND to ${folder} failed`);
}

// Maildir names carry a (secs, usecs) pair; one process-wide counter keeps them unique and ordered.
const seqBase = Math.floor(Date.now() / 1000) * 1e6;
let seq = 0;

const MAILDIR_FLAGS: Record<string, string> = { "\\Draft": "D", "\\Flagged": "F", "\\Answered": "R", "\\Seen": "S", "\\Deleted": "T" };

// Maildir++: INBOX is the root, "A/B" is the directory ".A.B". Created as the mail user, or
// Dovecot cannot write its index/uidlist files next to them.
function folderDir(root: string, folder: string, sep: string, id: Identity): string {
  if (!/^[\x20-\x7e]+$/.test(folder) || (sep !== "." && folder.includes("."))) throw new Error(`seedBulk: unsupported folder name ${folder}`);
  const path = folder.toUpperCase() === "INBOX" ? root : join(root, "." + folder.split(sep).join("."));
  for (const d of [root, path, join(path, "cur"), join(path, "new"), join(path, "tmp")]) {
    if (!existsSync(d)) { mkdirSync(d, { mode: 0o700 }); chownSync(d, id.uid, id.gid); }
  }
  const marker = join(path, "maildirfolder");
  if (path !== root && !existsSync(marker)) { writeFileSync(marker, ""); chownSync(marker, id.uid, id.gid); }
  return path;
}

async function writeMaildir(root: string, folder: string, sep: string, id: Identity, count: number, make: (i: number) => BulkMessage): Promise<void> {
  const cur = join(folderDir(root, folder, sep, id), "cur");
  const asRoot = process.getuid?.() === 0;
  const write = async (i: number) => {
    const m = make(i);
    const raw = Buffer.from(typeof m === "string" ? m : m.raw);
    const letters = (typeof m === "string" ? [] : m.flags ?? []).map((f) => MAILDIR_FLAGS[f] ?? "").sort().join("");
    // Dovecot gives new files UIDs in the order of the time in their names: encode the sequence there.
    const t = seqBase + seq++;
    const file = join(cur, `${Math.floor(t / 1e6)}.M${t % 1e6}P${process.pid}Q${seq}.mailbox-mcp-test,S=${raw.length}:2,${letters}`);
    await Bun.write(file, raw);
    if (asRoot) await chown(file, id.uid, id.gid);
  };
  // Parallel writes are several times faster than sequential ones on a disk-backed dir.
  for (let start = 0; start < count; start += 256) {
    await Promise.all(Array.from({ length: Math.min(256, count - start) }, (_, k) => write(start + k)));
  }
}
