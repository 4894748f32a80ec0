// The notice put into a mailbox's INBOX when an app is given access to it (docs/owner.md §6): an IMAP
// APPEND (RFC 3501 §6.3.11), so nothing is sent anywhere and no other server sees it. It names the
// app by the host its sign-in returns to (the one fact this server checked), the access and the send
// policy, when, and the owner's page where the access can be taken back. Unseen, so it is noticed.
import type { MailAccount } from "../account.ts";
import { connectImap } from "../imap/connect.ts";
import { newMessageId } from "../compose/message.ts";

export interface GrantNoticeInfo {
  /** The host the app's sign-in returned to (an ASCII host: URL.host). */
  appHost: string;
  access: string;
  sendPolicy: string;
  at: number;
  /** {base_url}/account */
  accountUrl: string;
}

/** What the connect use case calls; the time is the service clock's (appendGrantNotice). */
export type NotifyGrant = (account: MailAccount, info: Omit<GrantNoticeInfo, "at">) => Promise<void>;

/** The notice as RFC 5322 text: ASCII headers only (the host is ASCII; the body is UTF-8, declared). */
export function grantNoticeMessage(to: string, info: GrantNoticeInfo): Buffer {
  const at = new Date(info.at);
  const lines = [
    `From: mailbox-mcp <${to}>`,
    `To: <${to}>`,
    `Subject: An app at ${info.appHost} was given access to your mailbox`,
    `Date: ${at.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: ${newMessageId(to)}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    `An app whose sign-in returns to ${info.appHost} was given access to this mailbox`,
    `on ${at.toISOString().replace("T", " ").slice(0, 19)} UTC.`,
    "",
    `Access: ${info.access}`,
    `Sending: ${info.sendPolicy}`,
    "",
    "To see what it does, or to take the access back, sign in at:",
    info.accountUrl,
    "",
    "This note was put here by the server, not sent by email.",
    "",
  ];
  return Buffer.from(lines.join("\r\n"), "utf8");
}

export const appendGrantNotice = (clock: () => number): NotifyGrant => async (account, info) => {
  const client = await connectImap(account, { connectTimeoutMs: 15_000, socketTimeoutMs: 30_000 }, false);
  try {
    await client.append("INBOX", grantNoticeMessage(account.email, { ...info, at: clock() }), []);
  } finally {
    await client.logout().catch(() => client.close());
  }
};
