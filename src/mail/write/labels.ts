// label_email: Gmail labels (X-GM-LABELS, Gmail's IMAP extension X-GM-EXT-1) where the server has
// them, else IMAP keywords (RFC 3501 §2.3.2 flags without a backslash) where the folder accepts new
// ones (PERMANENTFLAGS holds "\*"), else an error saying which.
import type { ImapFlow } from "imapflow";
import { InputError, MailError } from "../errors.ts";
import { isGmail } from "../imap/capabilities.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { encodeMutf7 } from "../imap/mutf7.ts";
import { unlessRefused } from "../imap/refusal.ts";
import { checkUids, existingUids } from "../imap/uids.ts";
import type { MarkResult } from "./flags.ts";

export type LabelKind = "gmail_labels" | "keywords";

export interface LabelResult extends MarkResult {
  kind: LabelKind;
}

export interface LabelChange {
  add: string[];
  remove: string[];
}

// Gmail's own labels that only tag a message; \Trash, \Spam, \Draft, \Sent would move or delete it.
const GMAIL_SYSTEM = new Set(["\\Important", "\\Starred", "\\Inbox"]);
// RFC 3501 §9 atom-specials (and SP, CTL, non-ASCII): what an IMAP keyword cannot contain.
const NOT_ATOM = /[(){ %*"\\\]\x00-\x1f\x7f-\uffff]/;

/**
 * Labels and keywords are flags (RFC 3501 §2.3.2), changed as `mark_as_read` changes one (./flags.ts):
 * `UID SEARCH` of the UIDs, then `UID STORE`, both UID commands, so the *verify* rule holds
 * (docs/freshness.md) instead of a NOOP first, and running both twice changes the labels once.
 * Keywords are stored `.SILENT` (RFC 3501 §6.4.6); Gmail's echo of a label change names messages this
 * call did not fetch, which does not make it run again ("shown").
 */
export async function labelEmails(client: ImapFlow, folder: string, uids: number[], change: LabelChange): Promise<LabelResult> {
  const wanted = checkUids(uids);
  const kind: LabelKind = isGmail(client) ? "gmail_labels" : "keywords";
  const add = [...new Set(change.add.map((l) => checkLabel(kind, l, "add")))];
  const remove = [...new Set(change.remove.map((l) => checkLabel(kind, l, "remove")))];
  if (!add.length && !remove.length) throw new InputError("add", "give at least one label to add or remove");
  return withMailbox(client, folder, async (box) => {
    if (kind === "keywords") refuseNewKeywords(box.path, box.permanentFlags, add);
    const found = await existingUids(client, wanted);
    if (found.length) {
      const set = found.join(",");
      if (kind === "gmail_labels") {
        if (add.length) await storeLabels(client, set, "+", add);
        if (remove.length) await storeLabels(client, set, "-", remove);
      } else {
        if (add.length) await client.messageFlagsAdd(set, add, { uid: true, silent: true });
        if (remove.length) await client.messageFlagsRemove(set, remove, { uid: true, silent: true });
      }
    }
    return { folder: box.path, kind, updated: found.length, missing: wanted.filter((u) => !found.includes(u)) };
  }, { freshness: "verify", flagChanges: "shown" });
}

function checkLabel(kind: LabelKind, label: string, argument: string): string {
  if (!label || /[\x00-\x1f\x7f]/.test(label)) throw new InputError(argument, `${JSON.stringify(label)} is not a label (empty, or with control characters)`);
  if (kind === "gmail_labels") {
    if (label.startsWith("\\") && !GMAIL_SYSTEM.has(label)) {
      throw new InputError(argument, `${label} is not a label to set: use trash_email, archive_email or move_email to move messages (labels that only tag: ${[...GMAIL_SYSTEM].join(", ")})`);
    }
    return label;
  }
  if (label.startsWith("\\")) throw new InputError(argument, `${label} is a system flag, not a keyword: use flag_email or mark_as_read`);
  if (NOT_ATOM.test(label)) {
    throw new InputError(argument, `${JSON.stringify(label)} cannot be an IMAP keyword on this server: keywords are ASCII without spaces or ( ) { } % * " \\ ]`);
  }
  return label;
}

/** RFC 3501 §7.1: PERMANENTFLAGS lists the flags a client can set for good; "\*" allows new keywords. Absent, anything goes. */
function refuseNewKeywords(path: string, permanent: Set<string> | undefined, add: string[]): void {
  if (!permanent || permanent.has("\\*")) return;
  const known = new Set([...permanent].map((f) => f.toLowerCase()));
  const refused = add.filter((k) => !known.has(k.toLowerCase()));
  if (!refused.length) return;
  const existing = [...permanent].filter((f) => !f.startsWith("\\"));
  throw new MailError("invalid", `This mail server does not offer Gmail labels, and the folder ${JSON.stringify(path)} does not accept new keywords ` +
    `(its PERMANENTFLAGS lack \\*), so ${refused.join(", ")} cannot be added. ` +
    (existing.length ? `Keywords it accepts: ${existing.join(", ")}. ` : "It accepts no keywords. ") + "Nothing was changed.");
}

/** UID STORE +X-GM-LABELS / -X-GM-LABELS: imapflow sends labels as atoms, which breaks names with spaces. */
async function storeLabels(client: ImapFlow, set: string, sign: "+" | "-", labels: string[]): Promise<void> {
  const list = labels.map((l) => (l.startsWith("\\") ? { type: "ATOM", value: l } : { type: "STRING", value: encodeMutf7(l) }));
  const exec = (client as unknown as { exec(c: string, a: unknown[]): Promise<{ next(): void }> }).exec.bind(client);
  await unlessRefused("change the labels", async () => {
    const response = await exec("UID STORE", [{ type: "SEQUENCE", value: set }, { type: "ATOM", value: `${sign}X-GM-LABELS` }, list]);
    response.next();
  }, "Some may have changed; check with get_email.");
}
