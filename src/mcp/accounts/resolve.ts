// Which mailbox of the connection a call works in (docs/design.md §3 "Several mailboxes"): the one
// `account` names; with none, the only one; with several, all of them for a spanning read and an
// argument error naming `account` and the choices for anything else.
import type { MailboxRow } from "../../store/grant-mailboxes.ts";
import type { MailboxRef } from "../tools/context.ts";
import { ToolInputError } from "../tools/result.ts";

export type Resolved = { kind: "one"; ref: MailboxRef; row: MailboxRow } | { kind: "all"; refs: { ref: MailboxRef; row: MailboxRow }[] };

export const refOf = (row: MailboxRow, several: boolean): MailboxRef =>
  ({ position: row.position, account: row.address, several, mailboxKey: row.mailboxKey });

const choices = (rows: readonly MailboxRow[]) => rows.map((r) => r.address ?? `(mailbox ${r.position + 1})`).join(", ");

export function resolveAccount(rows: readonly MailboxRow[], account: string | undefined, spans: boolean): Resolved {
  if (!rows.length) throw new ToolInputError("This connection has no mailbox left: reconnect.");
  const several = rows.length > 1;
  if (account !== undefined) {
    const wanted = account.trim().toLowerCase();
    // A lone mailbox whose address was never recorded (a grant older than labels) is whatever it is called.
    const row = rows.find((r) => r.address === wanted) ?? (!several && rows[0]!.address === null ? rows[0] : undefined);
    if (!row) throw new ToolInputError(`account: "${account}" is not a mailbox of this connection; choose one of: ${choices(rows)}`);
    return { kind: "one", ref: refOf(row, several), row };
  }
  if (!several) return { kind: "one", ref: refOf(rows[0]!, false), row: rows[0]! };
  if (spans) return { kind: "all", refs: rows.map((row) => ({ ref: refOf(row, true), row })) };
  throw new ToolInputError(`account: this connection has ${rows.length} mailboxes; name one of: ${choices(rows)}`);
}
