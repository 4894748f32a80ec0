// find_contacts' memory: a ContactBook (./book.ts) per token and per mailbox, in this process only
// and never in the store. Held by the MCP runtime (src/mcp/runtime.ts): a revoked token's books go
// at once, a book unused for IDLE_MS goes with the runtime's sweep. Keyed by mailbox within a
// token, so a connection holding several mailboxes keeps one book each.
import type { Clock } from "../../../clock.ts";
import { ContactBook } from "./book.ts";

/** A book nobody asked for this long is dropped: it is rebuilt (one first call) when asked again. */
export const CONTACTS_IDLE_MS = 30 * 60_000;

interface Held { book: ContactBook; usedAt: number }

export class ContactsCache {
  private readonly tokens = new Map<string, Map<string, Held>>();

  constructor(private readonly clock: Clock, private readonly idleMs = CONTACTS_IDLE_MS) {}

  /** The book of `mailbox` (its login, any case) for this token, made empty on first use. */
  book(tokenId: string, mailbox: string): ContactBook {
    const books = this.tokens.get(tokenId) ?? new Map<string, Held>();
    this.tokens.set(tokenId, books);
    const key = mailbox.toLowerCase();
    const held = books.get(key) ?? { book: new ContactBook(), usedAt: 0 };
    held.usedAt = this.clock();
    books.set(key, held);
    return held.book;
  }

  dropToken(tokenId: string): void {
    this.tokens.delete(tokenId);
  }

  sweep(): void {
    const cutoff = this.clock() - this.idleMs;
    for (const [tokenId, books] of this.tokens) {
      for (const [key, held] of books) if (held.usedAt <= cutoff) books.delete(key);
      if (books.size === 0) this.tokens.delete(tokenId);
    }
  }

  /** Books held (tests, the bench). */
  get size(): number {
    let n = 0;
    for (const books of this.tokens.values()) n += books.size;
    return n;
  }
}
