// What the owner's page shows for one signed-in mailbox (docs/owner.md §7): its connections with
// their sends against the caps, one page of its activity, the drafts the send gate holds for it.
import type { AccountSession } from "../../store/account-sessions.ts";
import type { MailboxIdentities } from "../../store/mailbox-identities.ts";
import { formatIdentity } from "../../mail/identities/identity.ts";
import type { ActivityPage, Connection, OwnerActivityRow, OwnerView } from "../../store/owner-view.ts";

export type { OwnerActivityRow };

/** Sends counted now against each cap of a grant (src/sending/caps.ts SendCaps.used, wired by the composition root). */
export type CapsUsed = (grantId: string) => Promise<Array<{ window: "hour" | "day"; used: number; max: number }>>;

export interface ConnectionWithCaps extends Connection {
  caps: Awaited<ReturnType<CapsUsed>>;
}

export interface AccountData {
  email: string;
  connections: ConnectionWithCaps[];
  activity: ActivityPage;
  held: OwnerActivityRow[];
  /** The connection the activity is narrowed to, when it is one of this mailbox's. */
  filter: string | null;
  page: number;
  /** The send-as lines and signature as the form shows them. */
  identities: { sendAs: string; signature: string };
}

export interface AccountReaders {
  view: OwnerView;
  caps: CapsUsed;
  identities: Pick<MailboxIdentities, "get">;
}

export async function accountData({ view, caps, identities }: AccountReaders, session: AccountSession, q: { grant?: string; page?: string }): Promise<AccountData> {
  const connections = await view.connectionsOf(session.mailboxKey);
  const page = Math.min(Math.max(0, Math.floor(Number(q.page ?? 0)) || 0), 10_000);
  const filter = q.grant && /^[0-9a-f]{32}$/.test(q.grant) ? q.grant : null;
  const [withCaps, activity, held, ids] = await Promise.all([
    Promise.all(connections.map(async (c) => ({ ...c, caps: await caps(c.grantId) }))),
    view.activityOf(session.mailboxKey, { grantId: filter ?? undefined, page }),
    view.heldDraftsOf(session.mailboxKey),
    identities.get(session.mailboxKey),
  ]);
  const shown = { sendAs: (ids?.sendAs ?? []).map(formatIdentity).join("\n"), signature: ids?.signature ?? "" };
  return { email: session.email, connections: withCaps, activity, held, filter, page, identities: shown };
}
