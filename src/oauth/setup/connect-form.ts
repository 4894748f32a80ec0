// The setup form's fields (docs/design.md §3) turned into a MailAccount, or a message saying what to fix.
import { findProvider, type Provider, type ProviderEndpoint } from "../../mail/providers/presets.ts";
import { passwordAuth, type MailAccount, type Security, type ServerEndpoint } from "../../mail/account.ts";
import { hasControlCharacter, isMailboxAddress } from "./mailbox-address.ts";

/** Every field of POST /oauth/connect; all optional so our own checks, not a schema, decide the answer. */
export interface ConnectFields {
  request_id?: string;
  csrf_token?: string;
  provider?: string;
  email?: string;
  password?: string;
  username?: string;
  imap_host?: string;
  imap_port?: string;
  imap_security?: string;
  smtp_host?: string;
  smtp_port?: string;
  smtp_security?: string;
  /** "read_write" (default) or "read": the grant's scope (./access.ts). */
  access?: string;
  /** The send policy (./send-choice.ts): never | new_recipients (default) | always | direct. */
  send?: string;
  /** "1": keep this mailbox and show the form again to add another (./several.ts). */
  another?: string;
  /** "1": the "finish" form: issue the connection with the mailboxes verified so far. */
  finish?: string;
  /** Addresses the mailbox also sends as, one a line (./identity-fields.ts). */
  send_as?: string;
  /** The mailbox's signature, Markdown allowed (./identity-fields.ts). */
  signature?: string;
  /** The no-JavaScript "Sign in with …" button of an OAuth mail provider: its id (src/oauth/provider-sign-in/start.ts). */
  upstream?: string;
}

export type ParsedConnect = { ok: true; account: MailAccount } | { ok: false; message: string };

/** RFC 1123 host names (letters, digits, hyphens, dots) or an IPv4 literal; IPv6 in brackets. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^\[[0-9A-Fa-f:.]+\]$/;
const SECURITY = new Set<Security>(["tls", "starttls", "none"]);
const MAX_PASSWORD = 1024;

function endpoint(kind: "IMAP" | "SMTP", host?: string, port?: string, security?: string): ServerEndpoint | string {
  const h = (host ?? "").trim();
  if (!h || h.length > 253 || !HOST.test(h)) return `Enter the ${kind} server's host name, e.g. ${kind.toLowerCase()}.example.com.`;
  const p = Number((port ?? "").trim());
  if (!/^\d{1,5}$/.test((port ?? "").trim()) || p < 1 || p > 65535) return `Enter the ${kind} port (1–65535).`;
  if (!SECURITY.has(security as Security)) return `Choose the ${kind} security: TLS, STARTTLS or none.`;
  return { host: h.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, ""), port: p, security: security as Security };
}

function presetEndpoint(ep: ProviderEndpoint): ServerEndpoint {
  return { host: ep.host!, port: ep.port, security: ep.security };
}

function endpoints(provider: Provider, f: ConnectFields): { imap: ServerEndpoint; smtp: ServerEndpoint } | string {
  if (provider.id !== "custom") return { imap: presetEndpoint(provider.imap), smtp: presetEndpoint(provider.smtp) };
  const imap = endpoint("IMAP", f.imap_host, f.imap_port, f.imap_security);
  if (typeof imap === "string") return imap;
  const smtp = endpoint("SMTP", f.smtp_host, f.smtp_port, f.smtp_security);
  if (typeof smtp === "string") return smtp;
  return { imap, smtp };
}

/** The email and login name fields, refused whole when either holds a control character (./mailbox-address.ts). */
export function controlProblem(f: Pick<ConnectFields, "email" | "username">): string | null {
  for (const [field, value] of [["email address", f.email], ["login name", f.username]] as const) {
    if (value && hasControlCharacter(value)) {
      return `The ${field} contains a control character (a line break, tab or another invisible code). Type it again without it.`;
    }
  }
  return null;
}

/** Validate the person's input; the password is taken verbatim (app passwords may contain spaces). */
export function parseConnectFields(f: ConnectFields): ParsedConnect {
  const provider = f.provider ? findProvider(f.provider) : undefined;
  if (!provider) return { ok: false, message: "Choose your email provider." };
  const email = (f.email ?? "").trim();
  const typed = controlProblem(f);
  if (typed) return { ok: false, message: typed };
  if (!isMailboxAddress(email)) return { ok: false, message: "Enter your full email address, e.g. name@example.com." };
  const password = f.password ?? "";
  if (!password) return { ok: false, message: "Enter the app password for this mailbox." };
  if (password.length > MAX_PASSWORD) return { ok: false, message: "That password is too long." };
  const eps = endpoints(provider, f);
  if (typeof eps === "string") return { ok: false, message: eps };
  const username = (f.username ?? "").trim() || email;
  return {
    ok: true,
    account: { provider: provider.id, email, username, auth: passwordAuth(password), ...eps, providerSavesSent: provider.saves_sent },
  };
}
