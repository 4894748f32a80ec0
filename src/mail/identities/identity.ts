// The addresses a mailbox sends as (its identities): the login address first, then those the person
// listed on the setup form or the owner's page, each with a display name. Set by the person only,
// never by a tool: a prompt-injected model must not be able to add an address to send as.
import type { Address } from "../read/display-addresses.ts";

export interface Identity {
  /** The display name put in From:, or null for the bare address. */
  name: string | null;
  address: string;
  /** The signature of messages from this address: Markdown (plain text is Markdown too); null or absent for none. */
  signature?: string | null;
}

/** What the person set for a mailbox (src/store/mailbox-identities.ts): extra identities, each with its own signature. */
export interface IdentitySettings {
  /** The addresses the mailbox also sends as, beyond the login address, each with its signature. */
  sendAs: Identity[];
  /** The login address's signature (Markdown), or null for none. */
  signature: string | null;
}

export const NO_IDENTITY_SETTINGS: IdentitySettings = { sendAs: [], signature: null };

const key = (address: string) => address.toLowerCase();

/**
 * The login address first (named by the first listed identity with that address, if any, and
 * signed with the login's signature), then the listed ones with their own signatures, each address once.
 */
export function identitiesOf(login: string, settings: IdentitySettings): Identity[] {
  const own = settings.sendAs.find((i) => key(i.address) === key(login));
  const seen = new Set<string>();
  const listed = settings.sendAs.map((i) => ({ name: i.name, address: i.address, signature: i.signature ?? null }));
  return [{ name: own?.name ?? null, address: login, signature: settings.signature }, ...listed].filter((i) =>
    seen.has(key(i.address)) ? false : (seen.add(key(i.address)), true));
}

/** The identity with this address (case-insensitive), or null. */
export function findIdentity(list: readonly Identity[], address: string): Identity | null {
  return list.find((i) => key(i.address) === key(address.trim())) ?? null;
}

/** "Name <address>" or "address": how identities are listed to the person and in errors. */
export const formatIdentity = (i: Identity): string => (i.name ? `${i.name} <${i.address}>` : i.address);

/** The headers of an original that say whom it was addressed to, in the order they are trusted. */
export interface AddressedTo {
  to: Address[];
  cc: Address[];
  /** Delivered-To and X-Original-To (RFC 9228; Postfix), set by the receiving server. */
  deliveredTo: string[];
}

/**
 * The identity a reply or forward goes out from: the first of the mailbox's identities the
 * original was addressed to, looking at To, then Cc, then Delivered-To / X-Original-To; null when
 * none matches (the caller falls back to the login address).
 */
export function addressedIdentity(list: readonly Identity[], original: AddressedTo): Identity | null {
  const candidates = [...original.to, ...original.cc].map((a) => a.address ?? "").concat(original.deliveredTo);
  for (const address of candidates) {
    const found = address ? findIdentity(list, address) : null;
    if (found) return found;
  }
  return null;
}

/** Whom a composed message may come from: the mailbox's identities (login first), each with its signature. */
export interface Sender {
  identities: Identity[];
}

/** The sender of a mailbox whose login address is `login`, with what the person set (none: the login alone, unsigned). */
export const senderOf = (login: string, settings: IdentitySettings | null): Sender =>
  ({ identities: identitiesOf(login, settings ?? NO_IDENTITY_SETTINGS) });
