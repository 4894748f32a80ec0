// What the owner's activity log keeps of a write call (docs/owner.md §4): the folders, uids,
// recipients and Message-ID it touched and how it ended. Never a subject, a body or an attachment.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { InputError } from "../../mail/errors.ts";
import { MailError } from "../../mail/errors.ts";
import type { ActivityDetails, ActivityEntry } from "../../store/activity.ts";
import { BusyError, ToolInputError } from "./result.ts";

type Fields = Record<string, unknown>;

const strings = (v: unknown): string[] => [v ?? []].flat().filter((x): x is string => typeof x === "string");
const uids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);

/** What the arguments say the call was about. */
function fromArgs(tool: string, a: Fields): ActivityDetails {
  if (tool === "mark_as_read") return { folder: String(a.folder), uids: uids(a.uids), read: a.read !== false };
  if (tool === "move_email") return { folder: String(a.folder), destination: String(a.destination), uids: uids(a.uids) };
  const details: ActivityDetails = { recipients: [...strings(a.to), ...strings(a.cc), ...strings(a.bcc)] };
  if (typeof a.reply_to_uid === "number") details.reply_to = { folder: typeof a.reply_folder === "string" ? a.reply_folder : "INBOX", uid: a.reply_to_uid };
  return details;
}

/** What the result adds: where the message went, its Message-ID, new uids, refused recipients. */
function fromResult(tool: string, s: Fields): ActivityDetails {
  if (tool === "draft_email") return { folder: s.folder as string, uids: typeof s.uid === "number" ? [s.uid] : [], message_id: s.message_id as string };
  if (tool === "send_email") {
    const rejected = strings(s.rejected);
    return { folder: (s.saved_to as string | null) ?? null, message_id: s.message_id as string, ...(rejected.length ? { rejected } : {}) };
  }
  if (tool === "move_email") return { moved: s.moved as ActivityDetails["moved"] };
  return {};
}

/** The first line of what the caller was told; an unexpected error is "internal error", as the caller saw it. */
function errorLine(err: unknown): string {
  const known = err instanceof MailError || err instanceof InputError || err instanceof ToolInputError || err instanceof BusyError;
  return known ? (err as Error).message.split("\n")[0]!.slice(0, 300) : "internal error";
}

export function activityOf(tool: string, args: object, outcome: { result: CallToolResult } | { error: unknown }): Omit<ActivityEntry, "grantId"> {
  const details = fromArgs(tool, args as Fields);
  if ("error" in outcome) return { tool, outcome: "error", details: { ...details, error: errorLine(outcome.error) } };
  const { result } = outcome;
  if (result.isError) {
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
    return { tool, outcome: "error", details: { ...details, error: text.split("\n")[0]!.slice(0, 300) } };
  }
  return { tool, outcome: "ok", details: { ...details, ...fromResult(tool, (result.structuredContent ?? {}) as Fields) } };
}
