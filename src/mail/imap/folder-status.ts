// What the server says of a folder by its name now (STATUS, RFC 3501 §6.3.10), whatever the view
// of it this connection has selected. Two servers need it: one that sends no UIDNEXT with SELECT
// (Courier; RFC 3501 §6.3.1 makes it a "REQUIRED" response, yet Courier answers it only to STATUS),
// and one that keeps serving a selected folder that another client deleted and re-created (Dovecot:
// the session keeps the old view, UIDVALIDITY and all, until it selects the folder again).
import type { ImapFlow } from "imapflow";
import { folderNotFound } from "./folders.ts";
import { MailError } from "../errors.ts";

export interface FolderNow {
  uidValidity: string | null;
  uidNext: number | null;
}

export async function folderNow(client: ImapFlow, path: string): Promise<FolderNow> {
  let answer: Awaited<ReturnType<ImapFlow["status"]>> | false;
  try {
    answer = await client.status(path, { uidValidity: true, uidNext: true });
  } catch (err) {
    // imapflow: a STATUS refused and a LIST that finds no such folder (deleted meanwhile).
    if ((err as { code?: string }).code === "NotFound") throw await folderNotFound(client, path);
    throw err;
  }
  if (!answer) throw new MailError("protocol", `The mail server did not answer STATUS for "${path}"; try again.`);
  return {
    uidValidity: answer.uidValidity === undefined ? null : String(answer.uidValidity),
    uidNext: typeof answer.uidNext === "number" && answer.uidNext >= 1 ? answer.uidNext : null,
  };
}
