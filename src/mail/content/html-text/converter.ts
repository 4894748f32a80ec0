// HTML → text in helper processes with a budget of work time and a memory ceiling per document
// (docs/decisions.md "Content helpers"): one crafted email may neither freeze every user nor take
// the server's memory.
// A conversion that overruns is abandoned and its helper stopped (../helper/); the caller falls back
// to stripping tags (./strip.ts). Helpers are shared fairly between tokens (../helper/pool.ts).
import { HelperPool, type HelperPoolOptions, type PoolOutcome } from "../helper/pool.ts";

export type Conversion = { ok: true; text: string } | { ok: false; reason: "timeout" | "memory" | "busy" | "error" };

/** Plain text (html-to-text, the default) or Markdown (turndown, ./markdown.ts). */
export type HtmlFormat = "text" | "markdown";

/** Helpers at most, the work budget per document, the wait for a helper, the memory ceiling. */
export type ConverterOptions = Omit<HelperPoolOptions, "role">;

// 2 s covers ~1 MB of table-heavy HTML, more than the bound (./convert.ts) ever hands over. A helper
// with html-to-text loaded is ~45 MB resident; it is stopped at 256 MB (the bounded input needs far
// less), replaced after a job that left it above 150 MB, and stopped after a minute idle.
export const HTML_LIMITS: ConverterOptions = {
  processes: 2, budgetMs: 2_000, maxWaitMs: 10_000, idleMs: 60_000, memory: { memoryMb: 256 }, recycleMb: 150,
};

export class HtmlConverter {
  private readonly pool: HelperPool<string>;

  constructor(options: Partial<ConverterOptions> = {}) {
    this.pool = new HelperPool<string>({ role: "html-text", ...HTML_LIMITS, ...options });
  }

  /** The text (or Markdown) of `html`, converted on `owner`'s share of the helpers. */
  async convert(html: string, owner = "", budgetMs?: number, format: HtmlFormat = "text"): Promise<Conversion> {
    const input = format === "markdown" ? { format } : null;
    const outcome: PoolOutcome<string> = await this.pool.run(owner, input, new TextEncoder().encode(html), budgetMs);
    if (outcome.ok) return { ok: true, text: outcome.value };
    return { ok: false, reason: outcome.reason === "crash" ? "error" : outcome.reason };
  }

  /** Stops every helper; pending conversions end as errors. */
  close(): void {
    this.pool.close();
  }
}
