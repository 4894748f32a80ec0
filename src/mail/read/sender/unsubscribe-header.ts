// List-Unsubscribe (RFC 2369 §3.2: a list of <URI>s, the first preferred) and List-Unsubscribe-Post
// (RFC 8058 §3.1: "List-Unsubscribe=One-Click" makes the https URI a one-click POST). Only https and
// mailto are kept: an http URI would send the request in the clear, and others are not for us.

export interface UnsubscribeOffer {
  /** The https URI accepts RFC 8058's one-click POST. */
  one_click: boolean;
  https: string | null;
  mailto: string | null;
}

const MAX_URI = 2048;

/** What the message offers; null when it offers no https or mailto way. */
export function unsubscribeOffer(listUnsubscribe: string[], listUnsubscribePost: string[]): UnsubscribeOffer | null {
  const uris = [...(listUnsubscribe[0] ?? "").matchAll(/<([^<>]*)>/g)].map((m) => m[1]!.replace(/\s+/g, "")).filter((u) => u.length <= MAX_URI);
  const https = uris.find((u) => validHttps(u)) ?? null;
  const mailto = uris.find((u) => /^mailto:[^@\s]+@[^@\s?]+/i.test(u)) ?? null;
  if (!https && !mailto) return null;
  // RFC 8058 §3.1: exactly this one field value; one-click needs an https URI (§3.3 no http).
  const oneClick = listUnsubscribePost.some((v) => v.trim().toLowerCase() === "list-unsubscribe=one-click");
  return { one_click: oneClick && https !== null, https, mailto };
}

function validHttps(u: string): boolean {
  try {
    return new URL(u).protocol === "https:";
  } catch {
    return false;
  }
}
