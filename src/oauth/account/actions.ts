// What the owner's page does (docs/owner.md §7), for the signed-in mailbox only: revoke a
// connection, every connection, take the mailbox out of one, change its send policy. Revoking is
// the path of /oauth/revoke: the grant row and its tokens go in one transaction that also records
// the revocation for every other instance (src/store/revocations.ts), and this process's TokenEvents
// end the token's calls, sessions and IMAP/SMTP connections at once. Each action is an activity row
// marked as the owner's.
import type { Logger } from "../../log.ts";
import { isSendPolicy } from "../../send-policy.ts";
import type { ActivityLog } from "../../store/activity.ts";
import type { AccountSession } from "../../store/account-sessions.ts";
import type { OwnerView } from "../../store/owner-view.ts";
import type { MailboxIdentities } from "../../store/mailbox-identities.ts";
import { parseIdentityFields } from "../setup/identity-fields.ts";
import type { TokenEvents } from "../lifecycle/token-events.ts";

export interface AccountActionDeps {
  view: OwnerView;
  activity: ActivityLog;
  events: TokenEvents;
  log: Logger;
  identities: Pick<MailboxIdentities, "set">;
}

/** "not_found": the grant does not hold this mailbox (or is gone); the page says nothing more. */
export type ActionResult = "done" | "not_found" | "bad_input";

/** The tool names the activity log shows for the owner's own actions. */
export const OWNER_TOOLS = {
  revoke: "owner:revoke", removeMailbox: "owner:remove_mailbox", revokeAll: "owner:revoke_all", sendPolicy: "owner:send_policy",
  identities: "owner:identities",
} as const;

async function ended(deps: AccountActionDeps, session: AccountSession, grantId: string, tool: string, tokenIds: string[] | null): Promise<ActionResult> {
  if (!tokenIds) return "not_found";
  await Promise.all(tokenIds.map((id) => deps.events.emitRevoked(id)));
  await deps.activity.record({ grantId, mailboxKey: session.mailboxKey, tool, outcome: "ok", details: {} });
  deps.log.info("owner revoked a connection", { tokens: tokenIds.length });
  return "done";
}

export async function revokeConnection(deps: AccountActionDeps, session: AccountSession, grantId: string): Promise<ActionResult> {
  return ended(deps, session, grantId, OWNER_TOOLS.revoke, await deps.view.revokeConnection(grantId, session.mailboxKey));
}

/** This mailbox leaves the connection; a connection left without any is revoked (OwnerView.removeMailbox). */
export async function removeMailbox(deps: AccountActionDeps, session: AccountSession, grantId: string): Promise<ActionResult> {
  const outcome = await deps.view.removeMailbox(grantId, session.mailboxKey);
  // This process closes the mailbox's connections now; other instances read the same removal from the store.
  await Promise.all((outcome?.removed ?? []).map((r) => deps.events.emitMailboxRemoved(r.tokenId, r.position)));
  return ended(deps, session, grantId, OWNER_TOOLS.removeMailbox, outcome?.revoked ?? null);
}

export async function revokeAll(deps: AccountActionDeps, session: AccountSession): Promise<number> {
  const { grantIds, tokenIds } = await deps.view.revokeAllOf(session.mailboxKey);
  await Promise.all(tokenIds.map((id) => deps.events.emitRevoked(id)));
  for (const grantId of grantIds) await deps.activity.record({ grantId, mailboxKey: session.mailboxKey, tool: OWNER_TOOLS.revokeAll, outcome: "ok", details: {} });
  return grantIds.length;
}

export async function changeSendPolicy(deps: AccountActionDeps, session: AccountSession, grantId: string, send: string | undefined): Promise<ActionResult> {
  if (!isSendPolicy(send)) return "bad_input";
  if (!(await deps.view.setSendPolicy(grantId, session.mailboxKey, send))) return "not_found";
  await deps.activity.record({ grantId, mailboxKey: session.mailboxKey, tool: OWNER_TOOLS.sendPolicy, outcome: "ok", details: { send_policy: send } });
  return "done";
}

/**
 * The addresses this mailbox sends as and its signature, for every connection of it (they belong to
 * the mailbox, src/store/mailbox-identities.ts). Both blank clears them: unlike a connect, this page
 * shows what is set, so blank means none. The row is filed under no connection (grant "").
 */
export async function setIdentities(deps: AccountActionDeps, session: AccountSession, sendAs: string | undefined, signature: string | undefined): Promise<{ ok: true } | { ok: false; message: string }> {
  const parsed = parseIdentityFields(sendAs, signature);
  if (!parsed.ok) return parsed;
  await deps.identities.set(session.mailboxKey, parsed.settings ?? { sendAs: [], signature: null });
  await deps.activity.record({ grantId: "", mailboxKey: session.mailboxKey, tool: OWNER_TOOLS.identities, outcome: "ok", details: {} });
  return { ok: true };
}
