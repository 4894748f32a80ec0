// draft_email's mail work: compose (reading a replied or forwarded message and mailbox parts as
// needed) and APPEND to \Drafts.
import { assemble, type Assembled } from "../assemble.ts";
import { appendDraft } from "../append.ts";
import { ONCE, prepare, type OutgoingArgs, type OutgoingDeps } from "../outgoing.ts";
import type { Sender } from "../../identities/identity.ts";

export interface SavedDraft {
  folder: string;
  uid: number | null;
  message_id: string;
  /** What the tool's text says about the message (subject, recipients, reply or forward). */
  assembled: Omit<Assembled, "release">;
}

/** draft_email: → {folder, uid, message_id}, plus what was composed (for the tool's text block). */
export async function saveDraft(deps: OutgoingDeps, args: OutgoingArgs, sender?: Sender): Promise<SavedDraft> {
  const a = await assemble(deps, prepare(args, "draft", sender));
  try {
    const saved = await deps.withImap((client) => appendDraft(client, a.composed.stored, a.composed.messageId), ONCE);
    return { folder: saved.folder, uid: saved.uid, message_id: a.composed.messageId, assembled: a };
  } finally {
    a.release();
  }
}
