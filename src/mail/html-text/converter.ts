// A small pool of worker threads that turn HTML into text with a wall-clock budget per document
// (issue: one crafted email froze every user). A conversion that overruns is abandoned and its
// worker terminated; the caller falls back to stripping tags (./strip.ts).
import { availableParallelism } from "node:os";
import { dirname } from "node:path";

export type Conversion = { ok: true; text: string } | { ok: false; reason: "timeout" | "error" };

export interface ConverterOptions {
  /** Worker threads at most. */
  workers: number;
  /** Wall-clock budget per document, counted from the call (queueing included), in ms. */
  budgetMs: number;
  /** An idle worker is stopped after this long (a thread with html-to-text loaded is ~10 MB). */
  idleMs: number;
}

interface Job {
  id: number;
  html: string;
  resolve(c: Conversion): void;
  timer: ReturnType<typeof setTimeout>;
  slot: Slot | null;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

// In the single executable (bun build --compile) every entry point lives in Bun's embedded file
// system under the entry points' common root (src/), compiled to .js; elsewhere the source file
// next to this one is used. An absolute path, so the executable never loads a worker from disk.
function workerUrl(): string {
  if (Bun.main.startsWith("/$bunfs/")) return `${dirname(Bun.main)}/mail/html-text/worker.js`;
  return new URL("./worker.ts", import.meta.url).href;
}

export class HtmlConverter {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly options: ConverterOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({ worker: null, job: null, idleTimer: null }));
  }

  convert(html: string, budgetMs = this.options.budgetMs): Promise<Conversion> {
    return new Promise((resolve) => {
      const job: Job = { id: this.nextId++, html, resolve, slot: null, timer: setTimeout(() => this.expire(job), budgetMs) };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Stops every worker; pending conversions end as errors. */
  close(): void {
    for (const job of this.queue.splice(0)) this.finish(job, { ok: false, reason: "error" });
    for (const slot of this.slots) this.kill(slot, { ok: false, reason: "error" });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || !this.queue.length) continue;
      const job = this.queue.shift()!;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.job = job;
      job.slot = slot;
      (slot.worker ??= this.spawn(slot)).postMessage({ id: job.id, html: job.html });
    }
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(workerUrl());
    (worker as Worker & { unref(): void }).unref(); // Bun's Worker: an idle converter must not keep the process alive
    worker.onmessage = (event: MessageEvent<{ id: number; text?: string; error?: string }>) => {
      const job = slot.job;
      if (!job || job.id !== event.data.id) return;
      slot.job = null;
      this.finish(job, typeof event.data.text === "string" ? { ok: true, text: event.data.text } : { ok: false, reason: "error" });
      this.idle(slot);
      this.pump();
    };
    worker.onerror = () => {
      this.kill(slot, { ok: false, reason: "error" });
      this.pump();
    };
    return worker;
  }

  /** The budget is spent: a queued job is dropped, a running one takes its worker down with it. */
  private expire(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (job.slot?.job === job) this.kill(job.slot, { ok: false, reason: "timeout" });
    else this.finish(job, { ok: false, reason: "timeout" });
    this.pump();
  }

  private kill(slot: Slot, outcome: Conversion): void {
    slot.worker?.terminate();
    slot.worker = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const job = slot.job;
    slot.job = null;
    if (job) this.finish(job, outcome);
  }

  private idle(slot: Slot): void {
    slot.idleTimer = setTimeout(() => {
      if (!slot.job) this.kill(slot, { ok: false, reason: "error" });
    }, this.options.idleMs);
    slot.idleTimer.unref?.();
  }

  private finish(job: Job, outcome: Conversion): void {
    clearTimeout(job.timer);
    job.slot = null;
    job.resolve(outcome);
  }
}

// Two cores here are shared with IMAP parsing and HTTP, so at most two conversions run at once;
// the rest wait inside their budget. 2 s covers ~1 MB of table-heavy HTML, more than the bound
// (4 × max_chars, html-text/index.ts) ever hands over.
let shared: HtmlConverter | undefined;
export function sharedConverter(): HtmlConverter {
  return (shared ??= new HtmlConverter({ workers: Math.max(1, Math.min(2, availableParallelism() - 1)), budgetMs: 2_000, idleMs: 60_000 }));
}
