// The address classifier behind the custom-host rules, against every block of the IANA IPv4 and
// IPv6 Special-Purpose Address Registries (RFC 6890; registries as of 2025), the multicast and
// deprecated ranges next to them, and the embedded-IPv4 forms.
import { describe, expect, test } from "bun:test";
import { classifyAddress, type AddressClass } from "../../src/mail/net/address-class.ts";
import { isLocalAddress, isPublicAddress } from "../../src/mail/net/host-policy.ts";

type Row = [address: string, expected: AddressClass, block: string];

const IPV4: Row[] = [
  ["0.0.0.0", "other", "0.0.0.0/8 this network (RFC 791)"],
  ["0.255.255.255", "other", "0.0.0.0/8"],
  ["10.0.0.1", "private", "10.0.0.0/8 (RFC 1918)"],
  ["10.255.255.255", "private", "10.0.0.0/8"],
  ["100.64.0.1", "other", "100.64.0.0/10 shared address space (RFC 6598)"],
  ["100.127.255.254", "other", "100.64.0.0/10"],
  ["127.0.0.1", "loopback", "127.0.0.0/8 (RFC 1122)"],
  ["127.255.255.254", "loopback", "127.0.0.0/8"],
  ["169.254.169.254", "other", "169.254.0.0/16 link local (RFC 3927), cloud metadata"],
  ["172.16.0.1", "private", "172.16.0.0/12 (RFC 1918)"],
  ["172.31.255.255", "private", "172.16.0.0/12"],
  ["192.0.0.1", "other", "192.0.0.0/24 IETF protocol assignments, 192.0.0.0/29 DS-Lite"],
  ["192.0.0.8", "other", "192.0.0.8/32 IPv4 dummy address"],
  ["192.0.0.9", "other", "192.0.0.9/32 PCP anycast"],
  ["192.0.0.10", "other", "192.0.0.10/32 TURN anycast"],
  ["192.0.0.170", "other", "192.0.0.170/32 NAT64/DNS64 discovery"],
  ["192.0.0.171", "other", "192.0.0.171/32 NAT64/DNS64 discovery"],
  ["192.0.2.1", "other", "192.0.2.0/24 TEST-NET-1"],
  ["192.31.196.1", "other", "192.31.196.0/24 AS112-v4"],
  ["192.52.193.1", "other", "192.52.193.0/24 AMT"],
  ["192.88.99.1", "other", "192.88.99.0/24 deprecated 6to4 relay anycast"],
  ["192.168.1.1", "private", "192.168.0.0/16 (RFC 1918)"],
  ["192.175.48.1", "other", "192.175.48.0/24 direct delegation AS112"],
  ["198.18.0.1", "other", "198.18.0.0/15 benchmarking"],
  ["198.19.255.255", "other", "198.18.0.0/15"],
  ["198.51.100.1", "other", "198.51.100.0/24 TEST-NET-2"],
  ["203.0.113.7", "other", "203.0.113.0/24 TEST-NET-3"],
  ["224.0.0.1", "other", "224.0.0.0/4 multicast"],
  ["239.255.255.250", "other", "224.0.0.0/4 multicast"],
  ["240.0.0.1", "other", "240.0.0.0/4 reserved"],
  ["255.255.255.254", "other", "240.0.0.0/4 reserved"],
  ["255.255.255.255", "other", "255.255.255.255/32 limited broadcast"],
  // Public, including the neighbours of the blocks above.
  ["8.8.8.8", "global", "public"],
  ["1.1.1.1", "global", "public"],
  ["9.255.255.255", "global", "just below 10/8"],
  ["11.0.0.0", "global", "just above 10/8"],
  ["100.63.255.255", "global", "just below 100.64/10"],
  ["100.128.0.0", "global", "just above 100.64/10"],
  ["172.15.255.255", "global", "just below 172.16/12"],
  ["172.32.0.1", "global", "just above 172.16/12"],
  ["192.0.1.1", "global", "between 192.0.0/24 and 192.0.2/24"],
  ["192.169.0.1", "global", "just above 192.168/16"],
  ["198.20.0.1", "global", "just above 198.18/15"],
  ["223.255.255.254", "global", "just below multicast"],
];

const IPV6: Row[] = [
  ["::1", "loopback", "::1/128 loopback"],
  ["::", "other", "::/128 unspecified"],
  ["::ffff:127.0.0.1", "loopback", "::ffff:0:0/96 IPv4-mapped: judged as the IPv4 address"],
  ["::ffff:7f00:1", "loopback", "::ffff:0:0/96 in hex"],
  ["::ffff:10.0.0.1", "private", "::ffff:0:0/96"],
  ["::ffff:169.254.169.254", "other", "::ffff:0:0/96"],
  ["::ffff:192.0.2.1", "other", "::ffff:0:0/96"],
  ["::ffff:8.8.8.8", "global", "::ffff:0:0/96 of a public address"],
  ["64:ff9b::8.8.8.8", "global", "64:ff9b::/96 NAT64 of a public address (RFC 6052)"],
  ["64:ff9b::808:808", "global", "64:ff9b::/96 in hex"],
  ["64:ff9b::10.0.0.1", "other", "64:ff9b::/96 NAT64 of a private address"],
  ["64:ff9b::7f00:1", "other", "64:ff9b::/96 NAT64 of loopback"],
  ["64:ff9b:1::808:808", "other", "64:ff9b:1::/48 local-use translation (RFC 8215)"],
  ["100::1", "other", "100::/64 discard-only (RFC 6666)"],
  ["100:0:0:1::1", "other", "100:0:0:1::/64 dummy prefix (RFC 9780)"],
  ["2001:1::1", "other", "2001::/23 IETF protocol assignments: PCP anycast"],
  ["2001:1::2", "other", "2001:1::2/128 TURN anycast"],
  ["2001:1::3", "other", "2001:1::3/128 DNS-SD SRP anycast"],
  ["2001:1ff::1", "other", "2001::/23, last /32"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "other", "2001::/32 Teredo (RFC 4380)"],
  ["2001:2::1", "other", "2001:2::/48 benchmarking"],
  ["2001:3::1", "other", "2001:3::/32 AMT"],
  ["2001:4:112::1", "other", "2001:4:112::/48 AS112-v6"],
  ["2001:10::1", "other", "2001:10::/28 deprecated ORCHID"],
  ["2001:20::1", "other", "2001:20::/28 ORCHIDv2"],
  ["2001:30::1", "other", "2001:30::/28 drone remote ID DETs"],
  ["2001:db8::1", "other", "2001:db8::/32 documentation"],
  ["2002:c000:204::1", "other", "2002::/16 6to4 (RFC 3056)"],
  ["2002:808:808::1", "other", "2002::/16 6to4 even of a public IPv4 address"],
  ["2620:4f:8000::1", "other", "2620:4f:8000::/48 direct delegation AS112"],
  ["3fff::1", "other", "3fff::/20 documentation (RFC 9637)"],
  ["5f00::1", "other", "5f00::/16 segment routing SIDs (RFC 9602)"],
  ["fc00::1", "private", "fc00::/7 unique local (RFC 4193)"],
  ["fd12:3456:789a::1", "private", "fc00::/7"],
  ["fe80::1", "other", "fe80::/10 link-local"],
  ["febf::1", "other", "fe80::/10, top"],
  ["fe80::1%eth0", "other", "a zone index: scoped, never global"],
  // Outside the special-purpose registry, and still not global unicast.
  ["fec0::1", "other", "fec0::/10 deprecated site-local (RFC 3879)"],
  ["ff02::1", "other", "ff00::/8 multicast"],
  ["ff0e::1", "other", "ff00::/8 global-scope multicast"],
  ["::ffff:0:808:808", "other", "::ffff:0:0:0/96 IPv4-translated, SIIT (RFC 6145)"],
  ["::7f00:1", "other", "::/96 deprecated IPv4-compatible"],
  ["::808:808", "other", "::/96 deprecated IPv4-compatible of a public address"],
  ["4000::1", "other", "outside 2000::/3, unassigned"],
  // Public.
  ["2606:4700:4700::1111", "global", "public"],
  ["2a00:1450:4001:800::200e", "global", "public"],
  ["2001:4860:4860::8888", "global", "public, in 2001::/16 but past 2001::/23"],
  ["2001:200::1", "global", "first /23 after 2001::/23"],
];

const NOT_ADDRESSES: Row[] = [
  ["not-an-ip", "other", "a name"],
  ["127.1", "other", "inet_aton shorthand: a name to us, resolved before it is judged"],
  ["0x7f.0.0.1", "other", "hex shorthand"],
  ["2130706433", "other", "integer shorthand"],
  ["", "other", "empty"],
];

describe("classifyAddress: IANA special-purpose blocks, embedded forms, public addresses", () => {
  test.each([...IPV4, ...IPV6, ...NOT_ADDRESSES])("%s is %s (%s)", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe("the two rules built on it", () => {
  test.each([...IPV4, ...IPV6, ...NOT_ADDRESSES])("%s: public only if global, local only if private or loopback", (address, kind) => {
    expect(isPublicAddress(address)).toBe(kind === "global");
    expect(isLocalAddress(address)).toBe(kind === "private" || kind === "loopback");
  });
});
