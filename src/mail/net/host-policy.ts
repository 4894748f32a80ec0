// Which addresses a custom mail host may be reached at (docs/design.md §5, docs/oauth.md §6):
// - an account connected while private hosts are refused may only reach global unicast addresses:
//   the setup form must not become a way to make this server open connections into its own
//   network (SSRF);
// - a plain-text connection (security "none") may only reach private or loopback addresses: the
//   password must not cross the internet in clear.
// Both are checked when the account is connected (accountHostProblem, for the setup form's answer)
// and again on the resolved addresses before every new connection, which then goes to a checked
// address (pinning), so a later DNS answer cannot move it elsewhere (connectTarget).
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { classifyAddress } from "./address-class.ts";
import type { MailAccount, ServerEndpoint } from "../account.ts";
import { MailError } from "../errors.ts";

/** Global unicast, outside every IANA special-purpose block (./address-class.ts). */
export const isPublicAddress = (address: string): boolean => classifyAddress(address) === "global";

/** RFC 1918 / unique-local or loopback: the operator's own network, where plain text may go. */
export function isLocalAddress(address: string): boolean {
  const kind = classifyAddress(address);
  return kind === "private" || kind === "loopback";
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, "$1");

/** The addresses a host stands for: an IP literal as it is, a name as resolved; [] if it does not resolve. */
async function addressesOf(host: string, resolve: Resolver): Promise<string[]> {
  const literal = unbracket(host);
  if (isIP(literal)) return [literal];
  try {
    return await resolve(host);
  } catch {
    return [];
  }
}

export type HostCheck = { ok: true } | { ok: false; reason: "refused" | "unresolvable" };

/** Every address the host stands for must pass `allowed` (a name with one bad address is refused). */
export async function checkHost(host: string, allowed: (address: string) => boolean, resolve: Resolver = systemResolver): Promise<HostCheck> {
  const addresses = await addressesOf(host, resolve);
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  return addresses.every(allowed) ? { ok: true } : { ok: false, reason: "refused" };
}

/** Where to open the socket: an address, and the name TLS must present and verify (SNI). */
export interface ConnectTarget {
  host: string;
  servername?: string;
}

/**
 * Resolve now, check every address, and connect to a checked address while TLS still verifies the
 * name. Checking a name and then letting the connection resolve it again would let a short-lived
 * DNS answer point it elsewhere (DNS rebinding). Runs before every new connection, not only at the
 * setup form: a grant lives 30 days. Hosts under neither rule are left to the connection to resolve.
 */
export async function connectTarget(endpoint: Pick<ServerEndpoint, "host" | "security">, requirePublic: boolean,
  resolve: Resolver = systemResolver): Promise<ConnectTarget> {
  const { host } = endpoint;
  const plaintext = endpoint.security === "none";
  if (!requirePublic && !plaintext) return { host };
  const addresses = await addressesOf(host, resolve);
  if (addresses.length === 0) throw new MailError("unreachable", `The mail server host ${host} could not be found. Check the server name by reconnecting the mailbox.`);
  if (requirePublic && !addresses.every(isPublicAddress)) {
    throw new MailError("invalid", `The mail server host ${host} now points to a private network or reserved address, which this service does not connect to.`);
  }
  if (plaintext && !addresses.every(isLocalAddress)) {
    throw new MailError("invalid", `The mail server host ${host} points to an address outside this server's own network, and the connection is unencrypted ` +
      `(security "none"), which would send the password in clear. Reconnect the mailbox with TLS or STARTTLS.`);
  }
  const literal = unbracket(host);
  return isIP(literal) ? { host: literal } : { host: addresses[0]!, servername: host };
}

export interface HostProblem {
  reason: "refused" | "unresolvable";
  /** For the person at the setup form. */
  message: string;
}

const notFound = (host: string): HostProblem => ({ reason: "unresolvable", message: `The mail server host ${host} could not be found. Check the host name.` });

/** Custom hosts on private, loopback or link-local addresses are refused unless the operator allows them. */
async function privateHostProblem(account: MailAccount, allowPrivateHosts: boolean, resolve?: Resolver): Promise<HostProblem | null> {
  if (account.provider !== "custom" || allowPrivateHosts) return null;
  for (const host of new Set([account.imap.host, account.smtp.host])) {
    const check = await checkHost(host, isPublicAddress, resolve);
    if (check.ok) continue;
    if (check.reason === "unresolvable") return notFound(host);
    return {
      reason: "refused",
      message: `${host} is on a private network or reserved address, which this service does not connect to. ` +
        `If it is your own mail server, the operator can allow it with MAILBOX_MCP_ALLOW_PRIVATE_HOSTS=true.`,
    };
  }
  return null;
}

/**
 * Security "none" sends the password in clear. Allowed only to a host whose every address is private
 * or loopback (a homelab server on the operator's own network), hence never while private hosts are
 * refused; towards the internet TLS or STARTTLS is required.
 */
async function plaintextProblem(account: MailAccount, allowPrivateHosts: boolean, resolve?: Resolver): Promise<HostProblem | null> {
  const plain = [account.imap, account.smtp].filter((ep) => ep.security === "none");
  if (plain.length === 0) return null;
  const refusal = "Unencrypted connections (security \"none\") would send your password in clear over the internet. " +
    "Choose TLS or STARTTLS for both IMAP and SMTP.";
  if (!allowPrivateHosts) return { reason: "refused", message: refusal };
  for (const host of new Set(plain.map((ep) => ep.host))) {
    const check = await checkHost(host, isLocalAddress, resolve);
    if (check.ok) continue;
    if (check.reason === "unresolvable") return notFound(host);
    return { reason: "refused", message: `${host} is not on this server's own network (a private or loopback address). ` + refusal };
  }
  return null;
}

/** What stops an account from being connected, for the setup form: plain text first, then private hosts. */
export async function accountHostProblem(account: MailAccount, allowPrivateHosts: boolean, resolve?: Resolver): Promise<HostProblem | null> {
  return (await plaintextProblem(account, allowPrivateHosts, resolve)) ?? (await privateHostProblem(account, allowPrivateHosts, resolve));
}
