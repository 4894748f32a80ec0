// The stand-ins for compose's third-party images (stand-in-image.ts), from Debian's packages on this
// machine: postgresql 15, haproxy 2.6, caddy 2.6. Each keeps the paths, user and entry the official
// image has where the compose files rely on them. Test images only: the postgres stand-in carries
// Debian's dash because its entrypoint, like the official one, is a shell script.
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { place } from "../../scripts/image-rootfs.ts";
import { placeWithLibs, type StandIn } from "./stand-in-image.ts";

const PG = "/usr/lib/postgresql/15";
const PATH = "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

function users(root: string, name: string, uid: number): void {
  mkdirSync(join(root, "etc"), { recursive: true });
  writeFileSync(join(root, "etc/passwd"), `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${uid}:${uid}:${name}:/nonexistent:/sbin/nologin\n`);
  writeFileSync(join(root, "etc/group"), `root:x:0:\n${name}:x:${uid}:\n`);
  writeFileSync(join(root, "etc/nsswitch.conf"), "passwd: files\ngroup: files\nhosts: files dns\n");
}

function dirs(root: string, paths: string[], mode = 0o755): void {
  for (const p of paths) mkdirSync(join(root, p), { recursive: true, mode });
}

/** postgres:16's contract: POSTGRES_USER/PASSWORD/DB, PGDATA /var/lib/postgresql/data, user 999. */
export const POSTGRES: StandIn = {
  name: "postgres",
  ownerUid: 999,
  async stage(root, owned) {
    // The server loads these modules at initdb: PL/pgSQL, the snowball dictionaries, encoding conversions.
    const modules = readdirSync(`${PG}/lib`).filter((f) => /^(plpgsql|dict_snowball|libpqwalreceiver)\.so$|_and_.*\.so$/.test(f));
    await placeWithLibs(root, [`${PG}/bin/postgres`, `${PG}/bin/initdb`, ...modules.map((m) => `${PG}/lib/${m}`), "/usr/bin/dash"]);
    place(root, "/usr/bin/dash", "/bin/sh");
    cpSync("/usr/share/postgresql/15", join(root, "usr/share/postgresql/15"), { recursive: true, dereference: true });
    cpSync("/usr/share/zoneinfo", join(root, "usr/share/zoneinfo"), { recursive: true, dereference: true });
    place(root, join(import.meta.dir, "postgres-entrypoint.sh"), "/usr/local/bin/docker-entrypoint.sh");
    users(root, "postgres", 999);
    dirs(root, ["tmp"], 0o1777);
    dirs(owned, ["var/lib/postgresql/data", "var/run/postgresql"], 0o700);
  },
  config: [
    `ENV PATH=/usr/local/bin:/usr/bin:/bin:${PG}/bin PGDATA=/var/lib/postgresql/data`,
    "USER 999:999", "VOLUME /var/lib/postgresql/data", "STOPSIGNAL SIGINT",
    'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]', 'CMD ["postgres"]',
  ],
};

/** haproxy:2.6's: /usr/local/sbin/haproxy, config at /usr/local/etc/haproxy/haproxy.cfg, user 99. */
export const HAPROXY: StandIn = {
  name: "haproxy",
  ownerUid: 99,
  async stage(root) {
    await placeWithLibs(root, ["/usr/sbin/haproxy"]);
    place(root, "/usr/sbin/haproxy", "/usr/local/sbin/haproxy");
    users(root, "haproxy", 99);
    dirs(root, ["usr/local/etc/haproxy", "tmp"]);
  },
  config: [PATH, "USER 99:99", 'CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]'],
};

/** caddy:2's: /usr/bin/caddy, state under /data and /config, CA certificates. */
export const CADDY: StandIn = {
  name: "caddy",
  ownerUid: 0,
  async stage(root) {
    await placeWithLibs(root, ["/usr/bin/caddy"]);
    place(root, "/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs/ca-certificates.crt", 0o644);
    users(root, "caddy", 1000);
    dirs(root, ["data", "config", "etc/caddy", "tmp"]);
  },
  config: [PATH, "ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data", 'CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]'],
};
