// The messages the send gate held as drafts, as the owner's page lists them (docs/owner.md §7), and
// "dismiss": the page cannot look into the mailbox (it holds no login), so a draft the person sent or
// deleted in their mail app stays listed until they take it off. Dismissing writes an activity row
// of the owner's (the list skips the Message-IDs it names) and forgets the kept subject.
import type { ActivityLog } from "../../store/activity.ts";
import type { AccountSession } from "../../store/account-sessions.ts";
import type { HeldSubjects } from "../../store/held-subjects.ts";
import { DISMISS_HELD_TOOL, type OwnerActivityRow, type OwnerView } from "../../store/owner-view.ts";

export interface HeldMessage extends OwnerActivityRow {
  /** As kept when it was held (bounded, control characters removed), or null when none was kept. */
  subject: string | null;
}

export interface HeldDeps {
  view: Pick<OwnerView, "heldDraftsOf" | "heldRow">;
  subjects: Pick<HeldSubjects, "subjectsOf" | "forget">;
  activity: Pick<ActivityLog, "record">;
}

export async function heldMessagesOf(deps: { view: Pick<OwnerView, "heldDraftsOf">; subjects: Pick<HeldSubjects, "subjectsOf"> }, mailboxKey: string): Promise<HeldMessage[]> {
  const held = await deps.view.heldDraftsOf(mailboxKey);
  const ids = held.flatMap((r) => (r.details?.message_id ? [r.details.message_id] : []));
  const subjects = await deps.subjects.subjectsOf(mailboxKey, ids);
  return held.map((r) => ({ ...r, subject: subjects.get(r.details?.message_id ?? "") ?? null }));
}

/** "not_found" for an id that is not a held message of this mailbox (or not a number). */
export async function dismissHeld(deps: HeldDeps, session: AccountSession, id: string | undefined): Promise<"done" | "not_found"> {
  const n = /^\d{1,15}$/.test(id ?? "") ? Number(id) : null;
  const row = n === null ? null : await deps.view.heldRow(session.mailboxKey, n);
  const messageId = row?.details?.message_id;
  if (!row || !messageId) return "not_found";
  await deps.activity.record({ grantId: row.grantId, mailboxKey: session.mailboxKey, tool: DISMISS_HELD_TOOL, outcome: "ok", details: { message_id: messageId } });
  await deps.subjects.forget(session.mailboxKey, messageId);
  return "done";
}
