// A real access token through the real store path (pending request -> code -> token), without the
// HTTP OAuth flow (tested on its own in test/oauth). Returns the token and its record id.
import { randomBytes } from "node:crypto";
import { encodeAccount, type MailAccount } from "../../src/mail/account.ts";
import type { GrantStore } from "../../src/store/grants.ts";
import type { PendingStore } from "../../src/store/pending.ts";
import type { SendPolicy } from "../../src/send-policy.ts";
import type { MailUser } from "./dovecot.ts";

const hex = (n: number) => randomBytes(n).toString("hex");

type Stores = { grants: GrantStore; pending: PendingStore };

export async function issueTestToken(deps: Stores, account: MailAccount): Promise<string> {
  return (await issueTestGrant(deps, account)).token;
}

/**
 * Whose grant it is, as the setup form records it: the mailbox login (grants of one login are one
 * owner for the session cap, migration 9) and the client (a registered one must exist in the store).
 */
export interface TestGrantOwner {
  login: string;
  clientId?: string;
}

/**
 * A grant and its token. `sendPolicy` defaults to "direct" (send without asking, what the tests
 * written before send policies expect); tests of the send gate pass the policy they are about.
 */
export async function issueTestGrant(
  deps: Stores, account: MailAccount, scope = "email:read email:write", owner?: TestGrantOwner, sendPolicy: SendPolicy = "direct",
): Promise<{ token: string; tokenId: string; grantId: string }> {
  const { grants } = deps;
  const clientId = owner?.clientId ?? null;
  const { requestId } = await deps.pending.create(
    { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null, clientId },
    600_000,
  );
  const pending = (await deps.pending.get(requestId))!;
  const code = hex(24); // 48 characters, as the spec's codes
  const grantOwner = owner ? { clientId: clientId ?? "test-client", login: owner.login, keep: 1000 } : null;
  await grants.issueCode(code, pending, encodeAccount(account), 300_000, grantOwner, { ...(clientId ? { clientId } : {}), sendPolicy });
  const token = hex(32);
  const record = await grants.redeemCode(code, (await grants.findCode(code))!, token, scope, 30 * 86_400_000);
  if (!record) throw new Error("issueTestToken: code redemption failed");
  return { token, tokenId: record.id, grantId: record.grantId };
}

/** A MailAccount for a harness user (plain IMAP on localhost; SMTP optional). */
export function testAccount(u: MailUser, imap: { host: string; port: number }, smtpPort = 1): MailAccount {
  return {
    provider: "custom",
    email: u.email,
    username: u.user,
    auth: { kind: "password", password: u.pass },
    imap: { host: imap.host, port: imap.port, security: "none" },
    smtp: { host: imap.host, port: smtpPort, security: "none" },
    providerSavesSent: false,
  };
}

/** A connection of several mailboxes (docs/design.md §3 "Several mailboxes"): each with its own access and send policy. */
export async function issueTestConnection(deps: Stores,
  mailboxes: { account: MailAccount; access?: "read" | "read_write"; sendPolicy?: SendPolicy }[],
): Promise<{ token: string; tokenId: string; grantId: string }> {
  const { requestId } = await deps.pending.create(
    { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null, clientId: null }, 600_000);
  const pending = (await deps.pending.get(requestId))!;
  const code = hex(24);
  await deps.grants.issueCode(code, pending, mailboxes.map((m) => ({
    credentials: encodeAccount(m.account), login: `${m.account.username}\0${m.account.imap.host}:${m.account.imap.port}`,
    label: { email: m.account.email, host: m.account.imap.host }, provider: m.account.provider,
    access: m.access ?? "read_write", sendPolicy: m.sendPolicy ?? "direct",
  })), 300_000, null, {});
  const token = hex(32);
  const record = await deps.grants.redeemCode(code, (await deps.grants.findCode(code))!, token, "email:read email:write", 30 * 86_400_000);
  if (!record) throw new Error("issueTestConnection: code redemption failed");
  return { token, tokenId: record.id, grantId: record.grantId };
}
