// What STATUS (RFC 3501 §6.3.10) says of a folder's next UID: for a server that sends no UIDNEXT
// with SELECT (Courier 5 tells it only to STATUS, though RFC 3501 §6.3.1 makes the SELECT response
// REQUIRED). Not a way to see whether a selected folder was replaced: Dovecot answers STATUS of the
// selected folder from the selected view (docs/freshness.md).
import type { ImapFlow } from "imapflow";
import { folderNotFound } from "./folders.ts";
import { MailError } from "../errors.ts";

/** UIDNEXT by STATUS, or null when the server does not tell it there either. */
export async function uidNextByStatus(client: ImapFlow, path: string): Promise<number | null> {
  let answer: Awaited<ReturnType<ImapFlow["status"]>> | false;
  try {
    answer = await client.status(path, { uidNext: true });
  } catch (err) {
    // imapflow: a STATUS refused and a LIST that finds no such folder (deleted meanwhile).
    if ((err as { code?: string }).code === "NotFound") throw await folderNotFound(client, path);
    throw err;
  }
  if (!answer) throw new MailError("protocol", `The mail server did not answer STATUS for "${path}"; try again.`);
  return typeof answer.uidNext === "number" && answer.uidNext >= 1 ? answer.uidNext : null;
}
