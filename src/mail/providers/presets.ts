// Mail provider presets (docs/design.md §5): the well-known IMAP/SMTP endpoints and where each provider lets a
// person create an app-specific password. Wire names are snake_case: list_providers returns these
// records as they are (`saves_sent` is an extra the setup step uses for MailAccount.providerSavesSent).
import type { Security } from "../account.ts";

export interface ProviderEndpoint {
  /** null only for `custom`, whose hosts the person types in. */
  host: string | null;
  port: number;
  security: Security;
}

export interface Provider {
  id: string;
  name: string;
  imap: ProviderEndpoint;
  smtp: ProviderEndpoint;
  /** Where to create an app password; null when the provider has none (or for `custom`). */
  app_password_url: string | null;
  notes: string;
  /** The provider files sent mail in Sent itself, so the server must not APPEND its own copy. */
  saves_sent: boolean;
}

const tls = (host: string | null, port: number): ProviderEndpoint => ({ host, port, security: "tls" });
const starttls = (host: string, port: number): ProviderEndpoint => ({ host, port, security: "starttls" });

export const PROVIDERS: Provider[] = [
  {
    id: "gmail", name: "Gmail", imap: tls("imap.gmail.com", 993), smtp: tls("smtp.gmail.com", 465),
    app_password_url: "https://myaccount.google.com/apppasswords",
    notes: "Needs 2-Step Verification on your Google account. Gmail files sent mail in Sent by itself.",
    saves_sent: true,
  },
  {
    id: "outlook", name: "Outlook.com / Microsoft 365",
    imap: tls("outlook.office365.com", 993), smtp: starttls("smtp.office365.com", 587),
    app_password_url: "https://account.live.com/proofs/AppPassword",
    notes: "Microsoft has largely turned off app passwords (basic authentication) for Outlook.com and Microsoft 365; " +
      "this works only if your account still offers them.",
    saves_sent: false,
  },
  {
    id: "yahoo", name: "Yahoo Mail", imap: tls("imap.mail.yahoo.com", 993), smtp: tls("smtp.mail.yahoo.com", 465),
    app_password_url: "https://help.yahoo.com/kb/SLN15241.html",
    notes: "Create the app password under Account Security → External connections.",
    saves_sent: false,
  },
  {
    id: "icloud", name: "iCloud Mail", imap: tls("imap.mail.me.com", 993), smtp: starttls("smtp.mail.me.com", 587),
    app_password_url: "https://support.apple.com/en-us/102654",
    notes: "Needs two-factor authentication on your Apple Account. Use your @icloud.com address.",
    saves_sent: false,
  },
  {
    id: "fastmail", name: "Fastmail", imap: tls("imap.fastmail.com", 993), smtp: tls("smtp.fastmail.com", 465),
    app_password_url: "https://www.fastmail.help/hc/en-us/articles/360058752854-App-passwords",
    notes: "Give the app password IMAP and SMTP access.",
    saves_sent: false,
  },
  {
    id: "zoho", name: "Zoho Mail", imap: tls("imap.zoho.com", 993), smtp: tls("smtp.zoho.com", 465),
    app_password_url: "https://accounts.zoho.com/home#security/app_password",
    notes: "Turn on IMAP access in Zoho Mail settings. Accounts in the EU or India data centre use imap.zoho.eu / " +
      "imap.zoho.in: choose Other (custom) for those.",
    saves_sent: false,
  },
  {
    id: "aol", name: "AOL Mail", imap: tls("imap.aol.com", 993), smtp: tls("smtp.aol.com", 465),
    app_password_url: "https://help.aol.com/articles/Create-and-manage-app-password",
    notes: "Create the app password under Account Security.",
    saves_sent: false,
  },
  {
    id: "gmx", name: "GMX", imap: tls("imap.gmx.com", 993), smtp: starttls("mail.gmx.com", 587),
    app_password_url: "https://www.gmx.com/security/2fa/",
    notes: "Turn on POP3/IMAP access in GMX settings first. GMX.de / GMX.net accounts use imap.gmx.net and " +
      "mail.gmx.net: choose Other (custom) for those.",
    saves_sent: false,
  },
  {
    id: "yandex", name: "Yandex Mail", imap: tls("imap.yandex.com", 993), smtp: tls("smtp.yandex.com", 465),
    app_password_url: "https://id.yandex.com/security/app-passwords",
    notes: "Allow access by mail clients (IMAP) in Yandex Mail settings.",
    saves_sent: false,
  },
  {
    id: "mailbox.org", name: "mailbox.org", imap: tls("imap.mailbox.org", 993), smtp: tls("smtp.mailbox.org", 465),
    app_password_url: "https://kb.mailbox.org/en/private/security-and-privacy/e-mail-password",
    notes: "Create a mail app password for IMAP and SMTP under All settings → Security.",
    saves_sent: false,
  },
  {
    id: "posteo", name: "Posteo", imap: tls("posteo.de", 993), smtp: tls("posteo.de", 465),
    app_password_url: null,
    notes: "Posteo has no app passwords: use your account password.",
    saves_sent: false,
  },
  {
    id: "custom", name: "Other (custom IMAP/SMTP server)", imap: tls(null, 993), smtp: tls(null, 465),
    app_password_url: null,
    notes: "Enter your mail server's IMAP and SMTP host names, ports and security yourself.",
    saves_sent: false,
  },
];

export function findProvider(id: string): Provider | undefined {
  return PROVIDERS.find((p) => p.id === id);
}
