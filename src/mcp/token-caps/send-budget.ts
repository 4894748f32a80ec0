// Outgoing attachment bytes in flight per token (docs/decisions.md "Per-account limits").
// docs/design.md §7 allows 20 MB of attachments per message; one send of that size costs ~190 MB of RSS
// while its MIME is built and written (decoded buffers, the encoded message, the stored copy), so
// the 20 MB is a budget for all of a token's sends running at once, not for each of them.
import { MAX_ATTACHMENT_BYTES } from "../../mail/compose/message.ts";
import { BusyError } from "../tools/result.ts";

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

export class SendBudget {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly maxBytes = MAX_ATTACHMENT_BYTES) {}

  /** Attachment bytes of `tokenId`'s sends running now. */
  used(tokenId: string): number {
    return this.inFlight.get(tokenId) ?? 0;
  }

  /**
   * Reserves `bytes` for one send; the returned release must run in a finally. Throws BusyError
   * when other sends of the token are in flight and all together would exceed the budget. A lone
   * send is always admitted: its own size is the per-message check's business (src/mail/compose/message.ts).
   */
  reserve(tokenId: string, bytes: number): () => void {
    if (bytes <= 0) return () => {};
    const used = this.used(tokenId);
    if (used > 0 && used + bytes > this.maxBytes) {
      throw new BusyError(
        `Not sent: another send_email on this connection is still sending ${mb(used)} MB of attachments, and with these ` +
          `${mb(bytes)} MB that is more than the ${mb(this.maxBytes)} MB of attachments allowed in flight at once. ` +
          "Wait until the other message has gone, then call send_email again.",
      );
    }
    this.inFlight.set(tokenId, used + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.used(tokenId) - bytes;
      if (left > 0) this.inFlight.set(tokenId, left);
      else this.inFlight.delete(tokenId);
    };
  }
}
