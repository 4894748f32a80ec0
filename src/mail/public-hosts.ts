// Refuse custom mail hosts on private networks (DESIGN §5): the setup form must not become a way to make
// this server open connections into its own network (SSRF). Addresses per RFC 1918, RFC 6598, RFC 3927,
// RFC 4193, RFC 4291 §2.5 (loopback, unspecified, v4-mapped), RFC 6890 special-purpose registries.
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { MailError } from "./types.ts";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  // ::/96 also covers the deprecated IPv4-compatible form (::7f00:1).
  ["::", 96], ["fe80::", 10], ["fc00::", 7], ["ff00::", 8], ["64:ff9b:1::", 48],
] as const) blocked.addSubnet(net, bits, "ipv6");

/**
 * The IPv4 address inside an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96, RFC 6052) IPv6
 * address, written dotted (::ffff:10.0.0.1) or in hex (64:ff9b::a00:1).
 */
function embeddedIPv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIPv4(address);
  if (v4) return blocked.check(v4, "ipv4");
  return blocked.check(address, "ipv6");
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export type HostCheck = { ok: true } | { ok: false; reason: "private" | "unresolvable" };

/** Every address the name resolves to must be public; an IP literal is checked as it is. */
export async function checkPublicHost(host: string, resolve: Resolver = systemResolver): Promise<HostCheck> {
  const literal = host.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (isIP(literal)) addresses = [literal];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, reason: "unresolvable" };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  return addresses.some(isPrivateAddress) ? { ok: false, reason: "private" } : { ok: true };
}

/** Where to open the socket: an address, and the name TLS must present and verify (SNI). */
export interface ConnectTarget {
  host: string;
  servername?: string;
}

/**
 * For an account whose custom hosts must be public: resolve now, check every address, and connect
 * to a checked address while TLS still verifies the name. Checking a name and then letting the
 * connection resolve it again would let a short-lived DNS answer point it inward (DNS rebinding).
 * Runs before every new connection, not only at the setup form: a grant lives 30 days.
 */
export async function connectTarget(host: string, requirePublic: boolean, resolve: Resolver = systemResolver): Promise<ConnectTarget> {
  if (!requirePublic) return { host };
  const literal = host.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = isIP(literal) ? [literal] : await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new MailError("unreachable", `The mail server host ${host} could not be found. Check the server name by reconnecting the mailbox.`);
  if (addresses.some(isPrivateAddress)) {
    throw new MailError("invalid", `The mail server host ${host} now points to a private network address, which this service does not connect to.`);
  }
  return isIP(literal) ? { host: literal } : { host: addresses[0]!, servername: host };
}
