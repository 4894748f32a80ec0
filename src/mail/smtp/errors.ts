// nodemailer's errors in words a person can act on: what happened, whether anything was sent, what to do.
import type { MailAccount } from "../account.ts";
import { MailError } from "../errors.ts";

/** nodemailer reports addresses as strings or as {address} objects. */
export const addresses = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((a) => (typeof a === "string" ? a : String((a as { address?: string }).address ?? a))) : [];

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  rejected?: unknown;
  /** nodemailer: the SMTP command that failed, e.g. "MAIL FROM". */
  command?: string;
}

/**
 * The server would not let this login send as `from`: refused at MAIL FROM (Postfix's
 * reject_sender_login_mismatch, Fastmail without the identity) or after the message (Microsoft's
 * 5.2.252 SendAsDenied). Nothing went out; the fix is at the provider.
 */
function refusedSender(e: SmtpFailure, reply: string, from: string | undefined): MailError | null {
  // Only a permanent refusal (5xx, RFC 5321 §4.2.1) says the sender is not allowed: a 4xx at MAIL
  // FROM (greylisting, "try later") is temporary and worded as such below.
  const atMailFrom = e.code === "EENVELOPE" && /^MAIL\b/i.test(e.command ?? "") && (e.responseCode ?? 0) >= 500;
  if (!from || !(atMailFrom || /SendAsDenied|5\.2\.252|not owned by user|sender address rejected/i.test(reply))) return null;
  return new MailError("invalid", `The SMTP server refused to send as ${from} (${reply}). Nothing was sent. ` +
    `Set ${from} up at the mail provider as an address this login may send from (Microsoft 365: "Send As" permission on that mailbox; ` +
    "Fastmail: Settings → Sending identities; Gmail: Settings → Accounts → Send mail as), or send from another identity (from).");
}

export const isConnectionError = (err: unknown) => ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "EAUTH"].includes(String((err as SmtpFailure)?.code));

/** Maps a nodemailer error to a MailError saying what happened and what to do about it. */
export function smtpError(err: unknown, account: MailAccount, from?: string): MailError {
  if (err instanceof MailError) return err;
  const e = (err ?? {}) as SmtpFailure;
  const server = `${account.smtp.host}:${account.smtp.port}`;
  const reply = (e.response ?? e.message ?? "").trim();
  const sender = refusedSender(e, reply, from);
  if (sender) return sender;
  const code = e.responseCode ?? 0;
  switch (e.code) {
    case "EAUTH":
    case "ENOAUTH":
      if (account.auth.kind === "oauth2") {
        return new MailError("auth", `The SMTP server ${server} refused this mailbox's sign-in token (${reply}). Sending with it may be turned off ` +
          "for the mailbox (in Microsoft 365 an administrator turns on Authenticated SMTP per mailbox), or the sign-in was withdrawn: " +
          "reconnect the mailbox once that is fixed. Nothing was sent.");
      }
      return new MailError("auth", `The SMTP server ${server} refused the login (${reply}). The app password may have been revoked or lack SMTP access: reconnect the mailbox. Nothing was sent.`);
    case "ETIMEDOUT":
      return new MailError("timeout", `The SMTP server ${server} did not answer in time, so the message was most likely not sent (it is not in Sent). Try again later.`);
    case "ECONNECTION":
    case "ESOCKET":
    case "EDNS":
      return new MailError("unreachable", `Could not reach the SMTP server ${server} (${e.message ?? e.code}). Nothing was sent; try again later.`);
    case "ETLS":
      return new MailError("tls", `TLS with the SMTP server ${server} failed (${e.message ?? e.code}). Nothing was sent; check the SMTP security setting.`);
  }
  if (code === 552 || code === 523 || /size|too (large|big)/i.test(reply)) {
    return new MailError("invalid", `The SMTP server refused the message as too large (${reply}). Nothing was sent; send smaller or fewer attachments.`);
  }
  if (e.code === "EENVELOPE" && Array.isArray(e.rejected) && e.rejected.length) {
    return new MailError("invalid", `The SMTP server refused every recipient (${addresses(e.rejected).join(", ")}): ${reply}. Nothing was sent; check the addresses.`);
  }
  if (code >= 400 && code < 500) return new MailError("protocol", `The SMTP server temporarily refused the message (${reply}). Nothing was sent; try again in a few minutes.`);
  if (code >= 500) return new MailError("protocol", `The SMTP server refused the message (${reply}). Nothing was sent.`);
  return new MailError("protocol", `Sending failed: ${e.message ?? String(err)}. Nothing was sent.`);
}
