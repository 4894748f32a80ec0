// What get_email says plainly about who sent a message (docs/design.md §6): DMARC failed at the
// mailbox's own provider, or the display name holds an address other than the real one
// ("PayPal service@paypal.com" <x@evil.example>, the commonest phishing disguise). Our words only:
// the names and addresses they are about stay inside the untrusted-content fence.
import type { Address } from "../display-addresses.ts";
import type { SenderCheck } from "./sender-check.ts";

const ADDRESS_IN_NAME = /[^\s<>()"',;:@]+@[a-z0-9.-]+\.[a-z]{2,}/gi;

/** The display name shows an email address that is not the From address. */
export function nameHoldsOtherAddress(from: Address | null): boolean {
  if (!from?.name || !from.address) return false;
  const real = from.address.toLowerCase();
  return [...from.name.matchAll(ADDRESS_IN_NAME)].some((m) => m[0].toLowerCase() !== real);
}

export function senderWarnings(from: Address | null, check: SenderCheck | null): string[] {
  const out: string[] = [];
  if (check?.dmarc === "fail") {
    out.push("Warning: DMARC failed. The mailbox's own provider could not verify that this message comes from the domain in its From address; it may be forged.");
  } else if (check && !check.aligned && (check.spf === "fail" || check.dkim === "fail")) {
    out.push("Warning: the mailbox's own provider could not verify the sender's domain (SPF or DKIM failed).");
  }
  if (nameHoldsOtherAddress(from)) {
    out.push("Warning: the sender's display name contains an email address different from the address the message really came from (see From): a common disguise of phishing.");
  }
  return out;
}
