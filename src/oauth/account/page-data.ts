// What the owner's page shows for one signed-in mailbox (docs/owner.md §7): its connections with
// their sends against the caps, one page of its activity, the drafts the send gate holds for it.
import type { AccountSession } from "../../store/account-sessions.ts";
import type { MailboxIdentities } from "../../store/mailbox-identities.ts";
import { formatIdentity } from "../../mail/identities/identity.ts";
import type { ActivityPage, Connection, OwnerActivityRow, OwnerView } from "../../store/owner-view.ts";
import type { HeldSubjects } from "../../store/held-subjects.ts";
import { heldMessagesOf, type HeldMessage } from "./held.ts";

export type { OwnerActivityRow, HeldMessage };

/** Sends counted now against each cap of a grant (src/sending/caps.ts SendCaps.used, wired by the composition root). */
export type CapsUsed = (grantId: string) => Promise<Array<{ window: "hour" | "day"; used: number; max: number }>>;

export interface ConnectionWithCaps extends Connection {
  caps: Awaited<ReturnType<CapsUsed>>;
}

export interface AccountData {
  email: string;
  connections: ConnectionWithCaps[];
  activity: ActivityPage;
  held: HeldMessage[];
  /** The connection the activity is narrowed to, when it is one of this mailbox's. */
  filter: string | null;
  page: number;
  /** The send-as lines and the login address's signature as the form shows them; each listed address with its own signature. */
  identities: { sendAs: string; signature: string; others: Array<{ label: string; address: string; signature: string }> };
}

export interface AccountReaders {
  view: OwnerView;
  caps: CapsUsed;
  identities: Pick<MailboxIdentities, "get">;
  subjects: Pick<HeldSubjects, "subjectsOf">;
}

export async function accountData({ view, caps, identities, subjects }: AccountReaders, session: AccountSession, q: { grant?: string; page?: string }): Promise<AccountData> {
  const connections = await view.connectionsOf(session.mailboxKey);
  const page = Math.min(Math.max(0, Math.floor(Number(q.page ?? 0)) || 0), 10_000);
  const filter = q.grant && /^[0-9a-f]{32}$/.test(q.grant) ? q.grant : null;
  const [withCaps, activity, held, ids] = await Promise.all([
    Promise.all(connections.map(async (c) => ({ ...c, caps: await caps(c.grantId) }))),
    view.activityOf(session.mailboxKey, { grantId: filter ?? undefined, page }),
    heldMessagesOf({ view, subjects }, session.mailboxKey),
    identities.get(session.mailboxKey),
  ]);
  const others = (ids?.sendAs ?? []).map((i) => ({ label: formatIdentity(i), address: i.address, signature: i.signature ?? "" }));
  const shown = { sendAs: (ids?.sendAs ?? []).map(formatIdentity).join("\n"), signature: ids?.signature ?? "", others };
  return { email: session.email, connections: withCaps, activity, held, filter, page, identities: shown };
}
