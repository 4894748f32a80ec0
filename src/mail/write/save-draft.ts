// draft_email's mail work: compose and APPEND to \Drafts.
import { appendDraft } from "./append.ts";
import { compose, ONCE, prepare, threading, type OutgoingArgs, type OutgoingDeps } from "./outgoing.ts";

/** draft_email: → {folder, uid, message_id}, plus the subject used (for the tool's text block). */
export async function saveDraft(deps: OutgoingDeps, args: OutgoingArgs) {
  const p = prepare(args, "draft");
  return deps.withImap(async (client) => {
    const msg = await compose(deps, args, p, await threading(client, args, p.replyFolder));
    const saved = await appendDraft(client, msg.stored, msg.messageId);
    return { folder: saved.folder, uid: saved.uid, message_id: msg.messageId, subject: msg.subject };
  }, ONCE);
}
