// A mailto: URI (RFC 6068) as a message to send: the address, and the subject and body it asks for.
// Other header fields in the URI (cc, bcc, in-reply-to…) are ignored: an unsubscribe request goes
// to the list's one address.

export interface MailtoRequest {
  to: string;
  subject: string;
  body: string;
}

/** null when the URI names no single usable address. */
export function parseMailto(uri: string): MailtoRequest | null {
  const m = /^mailto:([^?]*)(?:\?(.*))?$/i.exec(uri.trim());
  if (!m) return null;
  let to: string;
  const query = new URLSearchParams(m[2] ?? "");
  try {
    to = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  if (!/^[^@\s,<>]+@[^@\s,<>]+$/.test(to)) return null;
  const pick = (k: string) => [...query].find(([key]) => key.toLowerCase() === k)?.[1] ?? "";
  return { to, subject: pick("subject").slice(0, 200) || "unsubscribe", body: pick("body").slice(0, 2000) || "unsubscribe" };
}
