// HTML → text in worker threads with a wall-clock budget per document (issue 10: one crafted email
// froze every user). A conversion that overruns is abandoned and its worker terminated (the shared
// ../worker-pool.ts); the caller falls back to stripping tags (./strip.ts).
import { availableParallelism } from "node:os";
import { workerUrl, WorkerPool, type WorkerPoolOptions } from "../worker-pool.ts";

export type Conversion = { ok: true; text: string } | { ok: false; reason: "timeout" | "error" };

/** Worker threads at most, the budget per document (queueing included), and when an idle worker stops. */
export type ConverterOptions = Omit<WorkerPoolOptions, "url">;

export class HtmlConverter {
  private readonly pool: WorkerPool<string>;

  constructor(options: ConverterOptions) {
    this.pool = new WorkerPool<string>({ ...options, url: workerUrl("mail/content/html-text/worker", new URL("./worker.ts", import.meta.url)) });
  }

  async convert(html: string, budgetMs?: number): Promise<Conversion> {
    const outcome = await this.pool.run(html, [], budgetMs);
    return outcome.ok ? { ok: true, text: outcome.value } : outcome;
  }

  /** Stops every worker; pending conversions end as errors. */
  close(): void {
    this.pool.close();
  }
}

// Two cores here are shared with IMAP parsing and HTTP, so at most two conversions run at once;
// the rest wait inside their budget. 2 s covers ~1 MB of table-heavy HTML, more than the bound
// (4 × max_chars, ../../read/message.ts) ever hands over. A thread with html-to-text loaded is ~10 MB:
// an idle one stops after a minute.
let shared: HtmlConverter | undefined;
export function sharedConverter(): HtmlConverter {
  return (shared ??= new HtmlConverter({ workers: Math.max(1, Math.min(2, availableParallelism() - 1)), budgetMs: 2_000, idleMs: 60_000 }));
}
