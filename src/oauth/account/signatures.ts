// Each address of the mailbox signs with its own signature (src/mail/identities/signature.ts): the
// owner's page sets one address's at a time (/account/signature), the login address's or a listed
// one's. Set by the person only, never by a tool. The row in the activity log is the owner's.
import type { AccountSession } from "../../store/account-sessions.ts";
import type { ActivityLog } from "../../store/activity.ts";
import type { MailboxIdentities } from "../../store/mailbox-identities.ts";
import { parseSignature } from "../setup/identity-fields.ts";

export interface SignatureDeps {
  identities: Pick<MailboxIdentities, "get" | "set">;
  activity: Pick<ActivityLog, "record">;
}

export const OWNER_SIGNATURE_TOOL = "owner:signature";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** "not_found": the address is not one of this mailbox's; a refused signature says why. */
export async function setSignature(deps: SignatureDeps, session: AccountSession, address: string | undefined, typed: string | undefined): Promise<{ ok: true } | { ok: false; status: 400 | 404; message: string }> {
  const signature = parseSignature(typed);
  if (typeof signature === "object" && signature !== null) return { ...signature, status: 400 };
  const current = (await deps.identities.get(session.mailboxKey)) ?? { sendAs: [], signature: null };
  const isLogin = same(address ?? "", session.email);
  if (!isLogin && !current.sendAs.some((i) => same(i.address, address ?? ""))) {
    return { ok: false, status: 404, message: "That address is not one this mailbox sends as." };
  }
  await deps.identities.set(session.mailboxKey, {
    sendAs: current.sendAs.map((i) => (!isLogin && same(i.address, address!) ? { ...i, signature } : i)),
    signature: isLogin ? signature : current.signature,
  });
  await deps.activity.record({ grantId: "", mailboxKey: session.mailboxKey, tool: OWNER_SIGNATURE_TOOL, outcome: "ok", details: {} });
  return { ok: true };
}
