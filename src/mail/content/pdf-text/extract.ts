// PDF attachment → text for get_attachment, in bounded time and memory whatever a sender mails.
// PDF.js runs in a helper process (./worker.ts, ../helper/): each document gets a budget of work
// time (waiting for a helper does not count) and a memory ceiling; past either the process is
// stopped and the call says why. Helpers are shared fairly between tokens (../helper/pool.ts).
// Pages are read in order until there is enough text for the max_chars window.
import { HelperPool, type HelperPoolOptions } from "../helper/pool.ts";
import type { PdfText } from "./pdf-text.ts";

export type { PdfText };

export type PdfOutcome = PdfText | { kind: "timeout" } | { kind: "memory" } | { kind: "busy" } | { kind: "error" };

export type PdfExtractorOptions = Omit<HelperPoolOptions, "role">;

/**
 * Work time per PDF: a 10 MB text-heavy PDF takes ~1-3 s here; a hostile one gets no longer.
 * Memory: a helper with PDF.js loaded is ~55 MB resident and ~60-150 MB after ordinary PDFs; it is
 * stopped at 320 MB, so with the server's own copy of the bytes one PDF grows the service by well
 * under 500 MB. One left above 200 MB by its job is replaced, so the memory goes back to the system.
 * Two helpers: a second token always finds one free while a first keeps one busy (the OS shares the
 * cores between them); an idle one stops after a minute.
 */
export const PDF_LIMITS: PdfExtractorOptions = {
  processes: 2, budgetMs: 10_000, maxWaitMs: 30_000, idleMs: 60_000, memory: { memoryMb: 320 }, recycleMb: 200,
};

export class PdfExtractor {
  private readonly pool: HelperPool<PdfText>;
  readonly options: PdfExtractorOptions;

  constructor(options: Partial<PdfExtractorOptions> = {}) {
    this.options = { ...PDF_LIMITS, ...options };
    this.pool = new HelperPool<PdfText>({ role: "pdf-text", ...this.options });
  }

  /** The text of a PDF, enough for `maxChars` (twice it, so a cut can be seen), read on `owner`'s share. */
  async extract(bytes: Uint8Array, maxChars: number, owner = ""): Promise<PdfOutcome> {
    const outcome = await this.pool.run(owner, { want: 2 * maxChars + 1 }, bytes);
    if (outcome.ok) return outcome.value;
    return { kind: outcome.reason === "crash" ? "error" : outcome.reason };
  }

  close(): void {
    this.pool.close();
  }
}
