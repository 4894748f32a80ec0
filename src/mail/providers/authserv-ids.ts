// The authserv-ids (RFC 8601 §2.5) the big providers write in the Authentication-Results they add
// on receipt, by the IMAP host of the preset (./presets.ts). An entry starting with "." matches any
// host name ending so (Yahoo and Fastmail name the receiving machine: mta1001.mail.gq1.yahoo.com,
// mx3.messagingengine.com; iCloud adds one header per method: spf.icloud.com, dkim-verifier.icloud.com,
// dmarc.icloud.com). "" is Microsoft's form without an authserv-id (`spf=pass …` straight away).
// A mailbox on another server learns its own from its recent mail (../read/sender/trust.ts).
const BY_IMAP_HOST: Record<string, readonly string[]> = {
  "imap.gmail.com": ["mx.google.com"],
  "outlook.office365.com": [""],
  "imap.mail.yahoo.com": [".yahoo.com"],
  "imap.aol.com": [".yahoo.com", ".aol.com"],
  "imap.mail.me.com": [".icloud.com"],
  "imap.fastmail.com": [".messagingengine.com"],
  "imap.zoho.com": ["mx.zohomail.com"],
};

/** The ids the provider behind this IMAP host writes; [] when it is not one we know. */
export function providerAuthservIds(imapHost: string | null | undefined): readonly string[] {
  return BY_IMAP_HOST[(imapHost ?? "").toLowerCase()] ?? [];
}

/** Whether `id` (lower case) is one of `trusted` (exact, or under a ".domain" entry). */
export function authservMatches(id: string, trusted: readonly string[]): boolean {
  return trusted.some((t) => (t.startsWith(".") ? id.endsWith(t) : id === t));
}
