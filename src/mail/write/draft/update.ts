// update_draft: a saved draft replaced by a new one made from its values and the fields given
// (docs/design.md §6). The new draft is stored first, in the same folder; only then is the old one
// removed, so a failure anywhere leaves the old draft as it was.
import { assemble, type Assembled } from "../assemble.ts";
import { appendMessage } from "../append.ts";
import { draftBase } from "./saved-values.ts";
import { readDraft } from "./read-saved.ts";
import { ONCE, prepare, type OutgoingArgs, type OutgoingDeps } from "../outgoing.ts";
import { removeMessage } from "../remove.ts";
import type { Sender } from "../../identities/identity.ts";

export interface UpdateArgs extends OutgoingArgs {
  uid: number;
  /** The draft's folder; default the \Drafts folder. */
  folder?: string;
}

export interface UpdatedDraft {
  folder: string;
  uid: number | null;
  message_id: string;
  /** The old draft's uid. */
  replaced: number;
  /** The old draft could not be removed (the new one is saved): said in the text, never an error. */
  warnings: string[];
  assembled: Omit<Assembled, "release">;
}

export async function updateDraft(deps: OutgoingDeps, args: UpdateArgs, sender?: Sender): Promise<UpdatedDraft> {
  const p = prepare(args, "update", sender);
  const old = await deps.withImap((c) => readDraft(c, args.folder ?? "\\Drafts", args.uid));
  const base = await draftBase(old.raw);
  // The draft's own attachments stay in memory while the new one is built: they count too.
  const kept = p.attachmentsGiven ? 0 : base.attachments.reduce((n, a) => n + a.content.length, 0);
  const release = deps.reserveAttachments?.(kept) ?? (() => {});
  try {
    const a = await assemble(deps, p, base);
    try {
      const { composed } = a;
      const saved = await deps.withImap((c) => appendMessage(c, old.folder, composed.stored, ["\\Draft", "\\Seen"], composed.messageId), ONCE);
      const warnings: string[] = [];
      await deps.withImap((c) => removeMessage(c, old.folder, old.uid), ONCE).catch((err: Error) => {
        warnings.push(`The new draft is saved, but removing the old one (uid ${old.uid} in ${old.folder}) failed: ${err.message}. Delete it yourself.`);
      });
      return { folder: saved.folder, uid: saved.uid, message_id: composed.messageId, replaced: old.uid, warnings, assembled: a };
    } finally {
      a.release();
    }
  } finally {
    release();
  }
}
