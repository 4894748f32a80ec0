// The built-in OAuth mail providers (docs/oauth-providers.md, where each value is traced to the
// provider's documentation; test/oauth/provider-presets.test.ts checks them). On only when configured.
import type { OAuthClientSettings } from "../../config/oauth-providers.ts";
import type { OAuthProvider } from "./provider.ts";

/**
 * Microsoft identity platform v2.0 endpoints for a tenant (`common`: work, school and personal
 * accounts). The Outlook resource scopes come first: a token is issued for the first resource named
 * (docs/oauth-providers.md §1). `openid email profile` give the ID token the address claims.
 */
export function microsoftProvider(c: OAuthClientSettings & { tenant: string }): OAuthProvider {
  const base = `https://login.microsoftonline.com/${encodeURIComponent(c.tenant)}/oauth2/v2.0`;
  return {
    id: "microsoft", name: "Microsoft", label: "Microsoft (Outlook.com, Hotmail, Live, Microsoft 365)",
    authorizationEndpoint: `${base}/authorize`, tokenEndpoint: `${base}/token`, userinfoEndpoint: null,
    // Microsoft's v2.0 metadata does not declare RFC 9207 `iss` in authorization responses.
    issuer: null,
    clientId: c.clientId, clientSecret: c.clientSecret,
    scopes: [
      "https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send",
      "offline_access", "openid", "email", "profile",
    ],
    authorizeParams: {},
    addressFrom: "id_token",
    imap: { host: "outlook.office365.com", port: 993, security: "tls" },
    smtp: { host: "smtp.office365.com", port: 587, security: "starttls" },
    sasl: "xoauth2",
    savesSent: false,
    notes: "Sign in at Microsoft; no app password needed. Works for Outlook.com, Hotmail and Live addresses and for " +
      "Microsoft 365 mailboxes whose organisation allows IMAP and SMTP AUTH.",
    imapRefusedHint: "IMAP may be turned off for this mailbox: on Outlook.com turn on \"Let devices and apps use IMAP\" " +
      "(Settings → Mail → Forwarding and IMAP); in Microsoft 365 an administrator turns on IMAP for the mailbox.",
    fromFile: false,
  };
}

/**
 * Google's OAuth 2.0 endpoints for web server applications. `access_type=offline` is what makes
 * Google return a refresh token, and `prompt=consent` makes it return one again on a second
 * connect (it gives one only with a consent screen).
 */
export function googleProvider(c: OAuthClientSettings): OAuthProvider {
  return {
    id: "google", name: "Google", label: "Google (Gmail, Google Workspace)",
    authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth", tokenEndpoint: "https://oauth2.googleapis.com/token",
    userinfoEndpoint: null,
    issuer: null,
    clientId: c.clientId, clientSecret: c.clientSecret,
    scopes: ["https://mail.google.com/", "openid", "email"],
    authorizeParams: { access_type: "offline", prompt: "consent" },
    addressFrom: "id_token",
    imap: { host: "imap.gmail.com", port: 993, security: "tls" },
    smtp: { host: "smtp.gmail.com", port: 465, security: "tls" },
    sasl: "xoauth2",
    savesSent: true,
    notes: "Sign in at Google; no app password needed. Gmail files sent mail in Sent by itself.",
    imapRefusedHint: "A Google Workspace administrator may have turned off IMAP access for this account.",
    fromFile: false,
  };
}
