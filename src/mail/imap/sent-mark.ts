// Takes the mark of where \Sent stands now (../../sent-mark.ts): at the login that makes a grant
// (./verify.ts), or at a grant's first send check when it was made before marks were kept. One LIST
// (cached per connection) and one STATUS (RFC 9051 §6.3.11: UIDNEXT, UIDVALIDITY).
import type { ImapFlow } from "imapflow";
import { NO_SENT, type SentMark } from "../../sent-mark.ts";
import { findSpecialUse, listFolders } from "./folders.ts";

export async function takeSentMark(client: ImapFlow): Promise<SentMark> {
  const sent = findSpecialUse(await listFolders(client), "\\Sent");
  if (!sent) return NO_SENT;
  const status = await client.status(sent.path, { uidNext: true, uidValidity: true });
  const uidValidity = Number((status && status.uidValidity) ?? 0);
  const uidNext = Number((status && status.uidNext) ?? 0);
  // A server that tells neither cannot be held to a mark: nothing in \Sent counts (the safe side).
  if (!uidValidity || !(uidNext >= 1)) return { ...NO_SENT, path: sent.path };
  return { path: sent.path, uidValidity, uidNext };
}
