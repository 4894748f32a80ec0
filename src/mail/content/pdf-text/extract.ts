// PDF attachment → text for get_attachment, in bounded time whatever a sender mails. PDF.js runs
// in a worker thread (./worker.ts) with a wall-clock budget per document, waiting time included;
// past it the worker is terminated and the call says the PDF could not be read in time.
// Pages are read in order until there is enough text for the max_chars window.
import { availableParallelism } from "node:os";
import { WorkerPool, workerUrl } from "../worker-pool.ts";

export interface PdfJob {
  bytes: Uint8Array;
  /** Stop reading pages once this many characters are out. */
  want: number;
}

export type PdfText =
  | { kind: "text"; text: string; pages: number; read: number; unreadable: number }
  | { kind: "encrypted" }
  | { kind: "invalid" };

export type PdfOutcome = PdfText | { kind: "timeout" } | { kind: "error" };

/** Wall-clock budget per PDF: a 10 MB text-heavy PDF takes ~1-3 s here; a hostile one gets no longer. */
export const PDF_BUDGET_MS = 10_000;

export class PdfExtractor {
  private readonly pool: WorkerPool<PdfText>;

  constructor(options: { workers: number; budgetMs: number; idleMs: number }) {
    this.pool = new WorkerPool<PdfText>({ url: workerUrl("mail/content/pdf-text/worker", new URL("./worker.ts", import.meta.url)), ...options });
  }

  /** The text of a PDF, enough for `maxChars` (twice it, so a cut can be seen). `bytes` is copied. */
  async extract(bytes: Uint8Array, maxChars: number): Promise<PdfOutcome> {
    const copy = new Uint8Array(bytes); // its own buffer, transferred to the worker without a second copy
    const job: PdfJob = { bytes: copy, want: 2 * maxChars + 1 };
    const outcome = await this.pool.run(job, [copy.buffer]);
    return outcome.ok ? outcome.value : { kind: outcome.reason };
  }

  close(): void {
    this.pool.close();
  }
}

// Two cores here are shared with IMAP parsing, HTML conversion and HTTP: at most two PDFs are read
// at once (one on this machine), the rest wait inside their budget. A worker with PDF.js loaded is
// ~40 MB, so an idle one is stopped after a minute.
let shared: PdfExtractor | undefined;
export function sharedPdfExtractor(): PdfExtractor {
  return (shared ??= new PdfExtractor({ workers: Math.max(1, Math.min(2, availableParallelism() - 1)), budgetMs: PDF_BUDGET_MS, idleMs: 60_000 }));
}
