// "Last used" for `mailbox-mcp grants`: at most one store write per grant per minute, whatever the
// request rate, so an authenticated /mcp request costs a Map lookup, not an UPDATE.
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log.ts";

export const LAST_USED_EVERY_MS = 60_000;
/** Entries kept before the stale ones are dropped: bounds the map by the grants active in a minute. */
const PRUNE_AT = 10_000;

export class LastUsed {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly write: (grantId: string) => Promise<void>,
    private readonly log: Logger,
    private readonly everyMs = LAST_USED_EVERY_MS,
  ) {}

  /** The grant served a request now. Never throws: a failed write only leaves "last used" older. */
  seen(grantId: string): void {
    const now = this.clock();
    const last = this.written.get(grantId);
    if (last !== undefined && now - last < this.everyMs) return;
    this.written.set(grantId, now);
    if (this.written.size > PRUNE_AT) this.prune(now);
    // Not awaited: the request does not wait for its bookkeeping.
    this.write(grantId).catch((err: unknown) => {
      this.log.warn("could not record last use", { error: (err as Error).message });
    });
  }

  private prune(now: number): void {
    for (const [id, at] of this.written) if (now - at >= this.everyMs) this.written.delete(id);
  }
}
