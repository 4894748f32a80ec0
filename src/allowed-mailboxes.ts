// Whose mailboxes this server may connect (MAILBOX_MCP_ALLOWED_MAILBOXES, docs/design.md §1,
// docs/oauth.md §10). With open registration anyone on the internet can register a client; without a
// list of whose mailboxes are served, any visitor could connect any mailbox, one on a mail server they
// run included, and become a tenant (issue 19, item 3). The list is matched against what a mail server
// verified, never against the address typed as a label:
// - an address (`alice@example.com`) or a domain (`@example.com`, that domain exactly, not its
//   subdomains) against the login name the IMAP server accepted, when that login is an address, and
//   only when the operator chose the server (a preset provider, an OAuth provider): a server the
//   visitor typed in accepts whatever login its owner likes, so its word on an address is worth nothing;
// - a host (`mail.example.com`) against the IMAP host connected to, whoever chose it;
// - `*`: anyone, said explicitly.
// Read once with the configuration (parseAllowedMailboxes); checked by every sign-in path after its
// live login (mailboxAllowed), and for a visitor's own server also before connecting (hostAllowed).

/** The parsed list; null in the configuration when it is not set. */
export type AllowedMailboxes =
  | { anyone: true }
  | { anyone: false; addresses: Set<string>; domains: Set<string>; hosts: Set<string> };

/** What a sign-in verified: the inputs of the decision, each as the mail server saw it. */
export interface VerifiedMailbox {
  /** The login name the IMAP server accepted (an address when it contains "@"). */
  login: string;
  /** The IMAP host connected to. */
  imapHost: string;
  /**
   * "operator" for a server this server's owner or code chose (a preset provider, an OAuth provider
   * from configuration); "visitor" for a custom server typed on the setup form.
   */
  serverChosenBy: "operator" | "visitor";
}

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const LOCAL = /^[^\s@<>"(),;:\\[\]]{1,64}$/;
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:.]*:[0-9a-f:.]*)$/;

const normHost = (host: string) => host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");

/** Parses the comma list; a string saying what is wrong with an entry, or the list. */
export function parseAllowedMailboxes(value: string): AllowedMailboxes | string {
  const entries = value.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (entries.length === 0) return "is empty: list addresses, @domains or IMAP hosts, or * for anyone";
  if (entries.includes("*")) return entries.length === 1 ? { anyone: true } : "* means anyone: give it alone, not with other entries";
  const list = { anyone: false as const, addresses: new Set<string>(), domains: new Set<string>(), hosts: new Set<string>() };
  for (const entry of entries) {
    const at = entry.lastIndexOf("@");
    if (at === 0 && DOMAIN.test(entry.slice(1))) list.domains.add(entry.slice(1));
    else if (at > 0 && LOCAL.test(entry.slice(0, at)) && DOMAIN.test(entry.slice(at + 1))) list.addresses.add(entry);
    else if (at < 0 && (DOMAIN.test(normHost(entry)) || IP_LITERAL.test(normHost(entry)))) list.hosts.add(normHost(entry));
    else return `"${entry}" is neither an address (you@example.com), a domain (@example.com) nor a mail host (imap.example.com)`;
  }
  return list;
}

/** Whether a visitor's own server may be used at all: only when its host is listed (or anyone is). */
export function hostAllowed(list: AllowedMailboxes | null, imapHost: string): boolean {
  return list === null || list.anyone || list.hosts.has(normHost(imapHost));
}

/** The decision, after the live login; `null` (not configured) allows anyone, as before the setting existed. */
export function mailboxAllowed(list: AllowedMailboxes | null, m: VerifiedMailbox): boolean {
  if (hostAllowed(list, m.imapHost)) return true;
  if (list === null || list.anyone || m.serverChosenBy !== "operator") return false;
  const login = m.login.trim().toLowerCase();
  const at = login.lastIndexOf("@");
  if (at <= 0) return false; // not an address: only a host entry can allow it
  return list.addresses.has(login) || list.domains.has(login.slice(at + 1));
}

/** The list for a person or a log line: "anyone" or its entries. */
export function describeAllowedMailboxes(list: AllowedMailboxes | null): string {
  if (list === null) return "any (not set)";
  if (list.anyone) return "anyone (*)";
  return [...list.addresses, ...[...list.domains].map((d) => `@${d}`), ...list.hosts].join(", ");
}
