// `mailbox-mcp activity [--grant ID] [--since YYYY-MM-DD] [--json]` (docs/design.md §1, docs/owner.md §4):
// what the apps did in the owner's name, one line per write call, oldest first.
import type { Config } from "../config.ts";
import type { ActivityDetails, ActivityRow } from "../store/activity.ts";
import type { Store } from "../store/store.ts";
import { SHORT_ID } from "./grants.ts";
import { printable } from "./printable.ts";
import { VerbError, type Out } from "./verb-args.ts";

export interface ActivityOptions {
  grant?: string;
  since?: string;
  json: boolean;
}

/** YYYY-MM-DD as the UTC midnight it starts with; anything else (or a date that does not exist) is a usage error. */
export function parseSince(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || new Date(ms).toISOString().slice(0, 10) !== value) throw new VerbError(`--since must be a date as YYYY-MM-DD (UTC), not "${value}"`, 2);
  return ms;
}

function checkGrant(value: string): string {
  if (!/^[0-9a-f]{4,32}$/i.test(value)) throw new VerbError(`--grant must be a grant id as \`grants\` shows it (at least 4 hex characters), not "${value}"`, 2);
  return value.toLowerCase();
}

/** The send gate's decisions in words (src/sending/request.ts SendDecision). */
const DECISIONS: Record<string, string> = {
  sent_directly: "sent without asking",
  confirmed: "confirmed by the person, sent",
  declined: "declined by the person, kept as draft",
  held_as_draft: "held as draft (the person could not be asked yet)",
  dry_run: "dry run, nothing sent",
  repeat: "repeated request, not sent again",
};

/** "to a@x, b@y; Message-ID <…>; in Sent": what the call touched, in one line. */
export function describeDetails(d: ActivityDetails | null): string {
  if (d === null) return "(details sealed under another master key)";
  const parts: string[] = [];
  if (d.recipients?.length) parts.push(`to ${d.recipients.join(", ")}`);
  if (d.reply_to) parts.push(`reply to uid ${d.reply_to.uid} in ${d.reply_to.folder}`);
  if (d.forward_of) parts.push(`forward of uid ${d.forward_of.uid} in ${d.forward_of.folder}`);
  if (d.attached_from?.length) parts.push(`attached ${d.attached_from.map((a) => `part ${a.part} of uid ${a.uid} in ${a.folder}`).join(", ")}`);
  if (d.destination !== undefined) parts.push(`${d.folder} -> ${d.destination}`);
  else if (d.folder) parts.push(`in ${d.folder}`);
  if (d.uids?.length) parts.push(`uids ${d.uids.join(", ")}`);
  if (d.new_path !== undefined) parts.push(`renamed to ${d.new_path}`);
  if (d.read !== undefined) parts.push(d.read ? "marked read" : "marked unread");
  if (d.flagged !== undefined) parts.push(d.flagged ? "flagged" : "unflagged");
  if (d.labels?.add.length) parts.push(`labels added ${d.labels.add.join(", ")}`);
  if (d.labels?.remove.length) parts.push(`labels removed ${d.labels.remove.join(", ")}`);
  if (d.moved?.length) parts.push(`new uids ${d.moved.map((m) => m.new_uid ?? "?").join(", ")}`);
  if (d.new_uid !== undefined) parts.push(`replaced by uid ${d.new_uid ?? "?"}`);
  if (d.message_id) parts.push(`Message-ID ${d.message_id}`);
  if (d.rejected?.length) parts.push(`refused by the server: ${d.rejected.join(", ")}`);
  if (d.decision) parts.push(DECISIONS[d.decision] ?? d.decision);
  if (d.error) parts.push(`error: ${d.error}`);
  return parts.join("; ");
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ") + " UTC";

export function formatActivity(rows: ActivityRow[]): string {
  if (rows.length === 0) return "No activity recorded for that selection (rows are kept 90 days).\n";
  const tool = Math.max(...rows.map((r) => r.tool.length));
  // Details carry what an app sent (folder names, recipients, error lines): printable, never raw (./printable.ts).
  return rows.map((r) => printable(`${when(r.at)}  ${r.grantId.slice(0, SHORT_ID)}  ${r.tool.padEnd(tool)}  ${r.outcome.padEnd(5)}  ${describeDetails(r.details)}`) + "\n").join("");
}

export async function activityVerb(store: Store, config: Config, opts: ActivityOptions, out: Out): Promise<void> {
  const filter = {
    ...(opts.grant !== undefined ? { grant: checkGrant(opts.grant) } : {}),
    ...(opts.since !== undefined ? { since: parseSince(opts.since) } : {}),
  };
  const rows = await store.activity.list(filter);
  if (!opts.json) return out(formatActivity(rows));
  out(JSON.stringify(rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })), null, 2) + "\n");
}
