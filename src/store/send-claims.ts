// A send's bookkeeping in as few commits as it can take (docs/decisions.md "The send gate"): the
// at-most-once claim and one event in each send-cap window in one transaction, all or nothing; the
// outcome and the recipients delivered to in another. Each commit of the SQLite file is a disk sync
// (several milliseconds on a busy disk): done one by one these were six per message. Only the claim
// needs its sync, before the message goes to SMTP; the outcome's commit does not wait for the disk
// (settle): docs/performance.md "send_email" argues why losing it can never send a message twice.
import type { Db } from "./db.ts";
import type { LimitStore, Window } from "./limits.ts";
import type { LedgerEntry, SendLedger } from "./send-ledger.ts";
import type { SendRecipients } from "./send-recipients.ts";

/** One send-cap window: its bucket in the limit events and its size. */
export interface CapWindow {
  bucket: string;
  w: Window;
}

export type Taken<T> =
  | { claimed: true; slots: string[] }
  | { claimed: false; entry: LedgerEntry<T> | null }
  /** The window at `index` is full for `waitMs` more: nothing was taken. */
  | { refused: { index: number; waitMs: number } };

class CapFull extends Error {
  constructor(readonly index: number, readonly waitMs: number) {
    super("cap full");
  }
}

export class SendClaims {
  constructor(
    private readonly db: Db,
    private readonly ledger: SendLedger,
    private readonly limits: LimitStore,
    private readonly recipients: SendRecipients,
  ) {}

  /**
   * The digest claimed for this send (a new claim, or with `reopen` a held outcome reopened for the
   * review card's Send) and one event taken in every window; or who holds the digest; or the first
   * full window, and then nothing is taken.
   */
  async take<T>(grantId: string, digest: string, windows: readonly CapWindow[], opts: { pending?: T; reopen?: boolean } = {}): Promise<Taken<T>> {
    const sealed = opts.pending === undefined ? null : await this.ledger.seal(grantId, digest, opts.pending);
    let slots: string[] | null;
    try {
      slots = await this.db.tx(async (tx) => {
        const claimed = opts.reopen ? await this.ledger.reclaimIn(tx, grantId, digest) : await this.ledger.claimIn(tx, grantId, digest, sealed);
        if (!claimed) return null;
        const taken: string[] = [];
        for (const [index, { bucket, w }] of windows.entries()) {
          const r = await this.limits.reserveIn(tx, bucket, [grantId], w);
          if ("waitMs" in r) throw new CapFull(index, r.waitMs); // rolls the claim back too
          taken.push(r.slot);
        }
        return taken;
      });
    } catch (err) {
      if (err instanceof CapFull) return { refused: { index: err.index, waitMs: err.waitMs } };
      throw err;
    }
    if (slots) return { claimed: true, slots };
    return { claimed: false, entry: await this.ledger.find<T>(grantId, digest) };
  }

  /** The send failed before the server took it: the claim and the cap events given back. */
  async giveBack(grantId: string, digest: string, slots: readonly string[]): Promise<void> {
    await this.db.tx(async (tx) => {
      await this.ledger.releaseIn(tx, grantId, digest);
      for (const slot of slots) await this.limits.releaseIn(tx, slot);
    });
  }

  /**
   * Sent: the outcome every retry gets, and the recipients now known, together; committed without
   * waiting for the disk. A power cut may undo it and leave the synced claim "sending": a retry is then
   * told the message may have gone and sends nothing (src/sending/repeat.ts), the caps still
   * count it (taken with the claim), and a recipient not remembered is asked about again, never less.
   */
  async settle<T>(grantId: string, digest: string, outcome: T, delivered: readonly string[]): Promise<void> {
    const sealed = await this.ledger.seal(grantId, digest, outcome);
    await this.db.tx(async (tx) => {
      await this.recipients.addIn(tx, grantId, delivered);
      await this.ledger.finishIn(tx, grantId, digest, sealed);
    }, { durable: false });
  }
}
