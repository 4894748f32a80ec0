// Who a client is for the per-client limits (docs/oauth.md §5): its IP address, written one way only.
// Behind a reverse proxy the address comes from the X-Forwarded-For hop the proxy wrote, and proxies
// write it in several ways: with the source port (`203.0.113.9:51234`, a new one per connection),
// bracketed (`[2001:db8::1]:443`), IPv4-mapped (`::ffff:203.0.113.9`), with leading zeros
// (`192.0.2.010`), in upper case or uncompressed IPv6. Counted as written, each spelling got fresh
// limits (docs/oauth.md §5). So every hop is reduced to the address alone, in one canonical form,
// before it is counted; IPv6 is then counted by /64, as one subscriber usually holds a whole /64.
import ipaddr from "ipaddr.js";

/**
 * The address a forwarded hop (or a socket's peer address) names, canonical: IPv4 dotted decimal
 * (an IPv4-mapped IPv6 address is its IPv4 address), IPv6 as RFC 5952 text without a zone; null when
 * it names no address. Lenient on purpose, like inet_aton: `192.0.2.010` is 192.0.2.8 and
 * `3221225985` is 192.0.2.1, so every spelling of one address lands on one key.
 */
export function canonicalAddress(hop: string): string | null {
  let s = hop.trim().replace(/^"(.*)"$/, "$1");
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^[^:]+:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(":")); // IPv4 or a name, with a port
  s = s.replace(/%.*$/, ""); // a zone index (fe80::1%eth0) says which interface, not who
  if (!ipaddr.isValid(s)) return null;
  const address = ipaddr.process(s);
  return address.kind() === "ipv4" ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
}

/** The first 64 bits of an IPv6 address, as `2001:db8:1:2::/64`. */
function prefix64(address: ipaddr.IPv6): string {
  return `${address.parts.slice(0, 4).map((p) => p.toString(16)).join(":")}::/64`;
}

/**
 * The limiter key of a client address: the canonical address, IPv6 by /64, so neither another
 * spelling nor rotating addresses inside one allocation resets a count. What names no address is
 * counted as written.
 */
export function clientKey(ip: string): string {
  const canonical = canonicalAddress(ip);
  if (canonical === null) return `ip:${ip}`;
  const address = ipaddr.parse(canonical);
  return `ip:${address.kind() === "ipv6" ? prefix64(address as ipaddr.IPv6) : canonical}`;
}
