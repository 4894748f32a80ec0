// Where the newest page of a folder began when this process last read it, on any connection of the
// same mailbox login: a connection opened later for that folder's newest page asks for the UIDs from
// there on in its first turn (./early-session.ts), before it knows how many messages the folder holds.
// Only a guess: the answer is used only when it covers the newest page exactly (../read/recent.ts).
// Per pool, never global; bounded.
import { Remembered } from "./remembered.ts";
import { serverKey } from "./server-facts.ts";

export interface NewestHint {
  /** The lowest UID of that newest page. */
  low: number;
}

/** At most this many folders remembered per pool (the oldest forgotten first). */
export const MAX_HINTS = 10_000;

export class ViewHints extends Remembered<NewestHint> {
  constructor() {
    super(MAX_HINTS);
  }
}

/** One folder of one mailbox login on one server. */
export const viewKey = (imap: { host: string; port: number; security: string }, username: string, path: string): string =>
  `${serverKey(imap)}\n${username}\n${path}`;
