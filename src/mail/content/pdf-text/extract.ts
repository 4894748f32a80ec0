// PDF attachment → text for get_attachment, in bounded time and memory whatever a sender mails.
// PDF.js runs in a helper process (./worker.ts, ../helper/): each document gets a budget of work
// time (waiting for a helper does not count) and a memory ceiling; past either the process is
// stopped and the call says why. Helpers are shared fairly between tokens (../helper/pool.ts).
// Pages are read in order until there is enough text for the max_chars window.
import { HelperPool, type HelperPoolOptions } from "../helper/pool.ts";

export type PdfText =
  | { kind: "text"; text: string; pages: number; read: number; unreadable: number }
  | { kind: "encrypted" }
  | { kind: "invalid" };

export type PdfOutcome = PdfText | { kind: "timeout" } | { kind: "memory" } | { kind: "busy" } | { kind: "error" };

export type PdfExtractorOptions = Omit<HelperPoolOptions, "role">;

/**
 * Work time per PDF: a 10 MB text-heavy PDF takes ~1-3 s here; a hostile one gets no longer.
 * Memory: a helper may reach 400 MB resident (its RLIMIT_DATA 512 MB stops it near 330 MB first);
 * with the server's own copy of the bytes, one PDF grows the service by less than 500 MB.
 */
export const PDF_LIMITS: PdfExtractorOptions = {
  processes: 2, budgetMs: 10_000, maxWaitMs: 30_000, idleMs: 60_000, memory: { memoryMb: 400, dataMb: 512 }, recycleMb: 200,
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
    return { kind: outcome.reason === "crash" ? "memory" : outcome.reason };
  }

  close(): void {
    this.pool.close();
  }
}

// Two helpers: a second token always finds one free while a first keeps one busy (the OS shares the
// cores between them). A helper with PDF.js loaded is ~55 MB resident; an idle one stops after a minute.
let shared: PdfExtractor | undefined;
export function sharedPdfExtractor(): PdfExtractor {
  return (shared ??= new PdfExtractor());
}
