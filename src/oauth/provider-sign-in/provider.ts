// An OAuth mail provider (docs/design.md §5): where a person signs in, what the server asks for, and
// the IMAP/SMTP endpoints the access token opens. Built from the configuration by ./registry.ts.
import type { ServerEndpoint } from "../../mail/account.ts";
import type { AddressSource, SaslMechanism } from "../../config/oauth-providers.ts";

export type { AddressSource, SaslMechanism };

export interface OAuthProvider {
  /** The setup form's `provider` value and the sealed account's `provider`. */
  id: string;
  /** Short, for sentences: "Sign in with Microsoft", "the sign-in at Microsoft expired". */
  name: string;
  /** The setup form's choice, e.g. "Microsoft (Outlook.com, Hotmail, Microsoft 365)". */
  label: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
  /** RFC 9207: the `iss` its authorization responses carry, required on the callback when set; null when it sends none. */
  issuer: string | null;
  clientId: string;
  /** Null for a public client: PKCE alone proves the code is ours (RFC 7636). */
  clientSecret: string | null;
  /** Asked at authorize; the mail scopes first, so a provider that picks a resource by the first scope picks mail. */
  scopes: string[];
  /** Further authorization request parameters (Google: offline access). */
  authorizeParams: Record<string, string>;
  addressFrom: AddressSource;
  imap: ServerEndpoint;
  smtp: ServerEndpoint;
  /** IMAP SASL mechanism (RFC 7628 OAUTHBEARER, or XOAUTH2); SMTP always uses XOAUTH2 (nodemailer). */
  sasl: SaslMechanism;
  savesSent: boolean;
  /** For list_providers and the form. */
  notes: string;
  /** What to tell a person whose IMAP login was refused after a good sign-in (IMAP turned off…). */
  imapRefusedHint: string;
  /** A provider from the operator's file: its mail hosts fall under the private-host rule (docs/oauth.md §6). */
  fromFile: boolean;
}

/** What may be shown of a provider (list_providers, pages): never its client id or secret. */
export type OAuthProviderInfo = Pick<OAuthProvider, "id" | "name" | "label" | "imap" | "smtp" | "notes">;

export function providerInfo({ id, name, label, imap, smtp, notes }: OAuthProvider): OAuthProviderInfo {
  return { id, name, label, imap: { ...imap }, smtp: { ...smtp }, notes };
}
