// sender_check (docs/design.md §6): what the mailbox's own provider found when the message arrived,
// from the topmost Authentication-Results only (RFC 8601 §5, §7.2: a header lower in the block may
// have been written by the sender). The topmost header must carry a trusted authserv-id (./trust.ts);
// headers right below it with another trusted id add methods it did not report (iCloud writes one
// per method, each under its own id: spf.icloud.com, dkim-verifier.icloud.com), and the first
// verdict for a method wins, so a forged "pass" below a real "fail" never shows. The first header
// with an untrusted id, or with an id already read, ends the run: a provider writes each id once, so
// a second "mx.google.com" is the sender's, and the dkim=pass it claims where the provider's own
// header said nothing about DKIM must not show either.
import { authservMatches } from "../../providers/authserv-ids.ts";
import { parseAuthResults, type MethodResult, type Verdict } from "./auth-results.ts";
import { headerFields } from "./header-fields.ts";

export interface SenderCheck {
  spf: Verdict | null;
  dkim: Verdict | null;
  dmarc: Verdict | null;
  /** The domain of the From address, lower case; null without one. */
  from_domain: string | null;
  /** A passing DKIM signature or SPF check is for the From domain (relaxed: the same domain or one under the other), or DMARC passed. */
  aligned: boolean;
}

/** The verdicts the provider recorded; null when no trusted header is on top. */
export function senderCheck(headerBlock: Buffer | undefined, fromAddress: string | null, trusted: readonly string[]): SenderCheck | null {
  if (!trusted.length) return null;
  const found = new Map<string, MethodResult>();
  const read = new Set<string>();
  for (const value of headerFields(headerBlock, "authentication-results")) {
    const ar = parseAuthResults(value);
    if (!ar || !authservMatches(ar.authservId, trusted) || read.has(ar.authservId)) break;
    read.add(ar.authservId);
    for (const r of ar.results) if (!found.has(r.method)) found.set(r.method, r);
  }
  if (!found.size) return null;
  const from_domain = fromAddress?.includes("@") ? fromAddress.slice(fromAddress.lastIndexOf("@") + 1).toLowerCase() : null;
  const verdict = (m: string) => found.get(m)?.result ?? null;
  return { spf: verdict("spf"), dkim: verdict("dkim"), dmarc: verdict("dmarc"), from_domain, aligned: aligned(found, from_domain) };
}

// Relaxed alignment (RFC 7489 §3.1) without the public suffix list: one domain equal to the other or
// under it. DMARC's own pass says it for us.
const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

function aligned(found: Map<string, MethodResult>, from: string | null): boolean {
  if (!from) return false;
  const dmarc = found.get("dmarc");
  if (dmarc?.result === "pass") return !dmarc.props["header.from"] || related(dmarc.props["header.from"].toLowerCase(), from);
  const dkim = found.get("dkim");
  const spf = found.get("spf");
  const mailfrom = spf?.props["smtp.mailfrom"]?.replace(/^.*@/, "").toLowerCase();
  return (dkim?.result === "pass" && !!dkim.props["header.d"] && related(dkim.props["header.d"].toLowerCase(), from))
    || (spf?.result === "pass" && !!mailfrom && related(mailfrom, from));
}
