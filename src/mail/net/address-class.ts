// What kind of network an IP address belongs to, for the custom-host rules (docs/oauth.md §6).
// The special-purpose blocks come from ipaddr.js, which tracks the IANA IPv4 and IPv6
// Special-Purpose Address Registries (RFC 6890) — a hand-kept list missed SIIT, 6to4, Teredo,
// site-local and others. We add only what a registry library cannot know about our use:
// IPv6 outside 2000::/3 is not global unicast (IANA IPv6 Address Space), and an IPv4 address
// carried inside an IPv6 one is judged as the IPv4 address it reaches.
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";

/**
 * - `global`: global unicast, none of the special-purpose blocks: the only class a public custom host may use.
 * - `private`: RFC 1918 (10/8, 172.16/12, 192.168/16) or IPv6 unique-local fc00::/7 (RFC 4193).
 * - `loopback`: 127/8, ::1.
 * - `other`: everything else (unspecified, link-local, shared 100.64/10, documentation, benchmarking,
 *   multicast, reserved, 6to4, Teredo, ORCHID, SIIT, site-local, discard, …), and anything that is
 *   not a strictly written IP address at all.
 */
export type AddressClass = "global" | "private" | "loopback" | "other";

// RFC 4291 §2.4 / IANA IPv6 Address Space: 2000::/3 is the only block allocated as Global Unicast.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
// RFC 6052 §2.1 well-known NAT64 prefix: globally reachable, the IPv4 address is the last 32 bits.
// (64:ff9b:1::/48, RFC 8215, is for local use only and stays `other`.)
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function classifyV4(address: ipaddr.IPv4): AddressClass {
  switch (address.range()) {
    case "unicast": return "global";
    case "private": return "private";
    case "loopback": return "loopback";
    default: return "other";
  }
}

/** The IPv4 address in the last 32 bits (RFC 6052 §2.2 with a /96 prefix; RFC 4291 §2.5.5.2). */
function lastIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const hi = address.parts[6]!;
  const lo = address.parts[7]!;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  // A zone index (fe80::1%eth0) only exists for scoped, non-global addresses.
  if (address.zoneId !== undefined) return "other";
  // ::ffff:a.b.c.d is how a dual-stack socket writes the IPv4 address itself: the same packet.
  if (address.isIPv4MappedAddress()) return classifyV4(lastIPv4(address));
  // NAT64 goes through a translator, possibly outside the operator's network: only a global
  // IPv4 address makes it global, and it is never "private" (plain text is not allowed through it).
  if (address.match(NAT64_WELL_KNOWN)) return classifyV4(lastIPv4(address)) === "global" ? "global" : "other";
  switch (address.range()) {
    case "unicast": return address.match(GLOBAL_UNICAST_V6) ? "global" : "other";
    case "uniqueLocal": return "private";
    case "loopback": return "loopback";
    default: return "other";
  }
}

export function classifyAddress(text: string): AddressClass {
  // node:net's strict parser first: ipaddr.js also accepts "127.1", "0x7f.0.0.1" and other
  // inet_aton shorthands, which are names to us (the resolver turns them into real addresses).
  const family = isIP(text);
  if (family === 4) return classifyV4(ipaddr.IPv4.parse(text));
  if (family === 6) return classifyV6(ipaddr.IPv6.parse(text));
  return "other";
}
