// send_draft: a saved draft sent exactly as saved (./draft-wire.ts), through deliver (./deliver.ts, the
// one function that sends), filed in \Sent and removed from its folder.
import { deliver, type Delivered } from "./deliver.ts";
import { readDraft } from "./draft-source.ts";
import { draftToSend } from "./draft-wire.ts";
import type { OutgoingDeps } from "./outgoing.ts";

export interface SentDraft extends Delivered {
  /** The draft's folder (its real path) and uid. */
  draft: { folder: string; uid: number };
}

export async function sendDraft(deps: OutgoingDeps, folder: string, uid: number, now = new Date()): Promise<SentDraft> {
  const draft = await deps.withImap((c) => readDraft(c, folder, uid));
  const msg = draftToSend(draft.raw, deps.account.email, now);
  // What the message holds in memory while it goes out, about its attachments' decoded size.
  const release = deps.reserveAttachments?.(Math.floor((draft.raw.length * 3) / 4)) ?? (() => {});
  try {
    const out = await deliver(deps, msg, { sentDraft: { folder: draft.folder, uid: draft.uid } });
    return { ...out, draft: { folder: draft.folder, uid: draft.uid } };
  } finally {
    release();
  }
}
