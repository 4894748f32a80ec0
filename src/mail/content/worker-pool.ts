// Worker threads that run untrusted-input work (PDF text extraction) with a wall-clock budget per
// job: a job that overruns is abandoned and its worker terminated, so a hostile document costs at
// most the budget and one thread, never the server's event loop. Used by the HTML converter
// (./html-text/converter.ts) and the PDF reader: any worker that answers {id, value} to {id, input}.
// Workers are reused while busy and stopped after idleMs without work.

export type PoolOutcome<T> = { ok: true; value: T } | { ok: false; reason: "timeout" | "error" };

export interface WorkerPoolOptions {
  /** The worker's module URL (see workerUrl below). */
  url: string;
  /** Worker threads at most; further jobs wait inside their budget. */
  workers: number;
  /** Wall-clock budget per job, counted from the call (queueing included), in ms. */
  budgetMs: number;
  /** An idle worker is stopped after this long. */
  idleMs: number;
}

interface Job<T> {
  id: number;
  input: unknown;
  transfer: Transferable[];
  resolve(o: PoolOutcome<T>): void;
  timer: ReturnType<typeof setTimeout>;
  slot: Slot<T> | null;
}

interface Slot<T> {
  worker: Worker | null;
  job: Job<T> | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

/**
 * Where a worker entry point is. In the single executable (bun build --compile) every entry point
 * lives in Bun's embedded file system under the entry points' common root (src/), compiled to .js
 * (scripts/build.ts lists them); elsewhere the source file is used. `fromSrc` is the path below
 * src/ without extension, e.g. "mail/content/pdf-text/worker".
 */
export function workerUrl(fromSrc: string, sourceUrl: URL): string {
  if (Bun.main.startsWith("/$bunfs/")) return `${Bun.main.slice(0, Bun.main.lastIndexOf("/"))}/${fromSrc}.js`;
  return sourceUrl.href;
}

export class WorkerPool<T> {
  private readonly slots: Slot<T>[];
  private readonly queue: Job<T>[] = [];
  private nextId = 1;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({ worker: null, job: null, idleTimer: null }));
  }

  run(input: unknown, transfer: Transferable[] = [], budgetMs = this.options.budgetMs): Promise<PoolOutcome<T>> {
    return new Promise((resolve) => {
      const job: Job<T> = { id: this.nextId++, input, transfer, resolve, slot: null, timer: setTimeout(() => this.expire(job), budgetMs) };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Stops every worker; pending jobs end as errors. */
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
      (slot.worker ??= this.spawn(slot)).postMessage({ id: job.id, input: job.input }, job.transfer);
    }
  }

  private spawn(slot: Slot<T>): Worker {
    const worker = new Worker(this.options.url);
    (worker as Worker & { unref(): void }).unref(); // an idle pool must not keep the process alive
    worker.onmessage = (event: MessageEvent<{ id: number; value?: T; error?: string }>) => {
      const job = slot.job;
      if (!job || job.id !== event.data.id) return;
      slot.job = null;
      this.finish(job, "value" in event.data ? { ok: true, value: event.data.value as T } : { ok: false, reason: "error" });
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
  private expire(job: Job<T>): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (job.slot?.job === job) this.kill(job.slot, { ok: false, reason: "timeout" });
    else this.finish(job, { ok: false, reason: "timeout" });
    this.pump();
  }

  private kill(slot: Slot<T>, outcome: PoolOutcome<T>): void {
    slot.worker?.terminate();
    slot.worker = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const job = slot.job;
    slot.job = null;
    if (job) this.finish(job, outcome);
  }

  private idle(slot: Slot<T>): void {
    slot.idleTimer = setTimeout(() => {
      if (!slot.job) this.kill(slot, { ok: false, reason: "error" });
    }, this.options.idleMs);
    slot.idleTimer.unref?.();
  }

  private finish(job: Job<T>, outcome: PoolOutcome<T>): void {
    clearTimeout(job.timer);
    job.slot = null;
    job.resolve(outcome);
  }
}
