// Content helper processes shared by every token, handed out fairly (docs/decisions.md "Content
// helpers"): jobs wait in a per-owner round robin (./fair-queue.ts); one owner may hold at most all
// helpers but one while others wait, so a second token always finds one free;
// a job's budget counts its work only, from the moment a helper takes it, so waiting behind others
// never uses it up; the wait itself is bounded separately. Each helper runs one job at a time
// under a memory ceiling (./helper-process.ts); one that grew large is stopped after its job so its
// memory goes back to the system, and an idle one after idleMs.
import { FairQueue } from "./fair-queue.ts";
import { HelperProcess, type HelperLimits, type JobOutcome } from "./helper-process.ts";
import type { HelperRole } from "./roles.ts";

export type PoolOutcome<T> = JobOutcome<T> | { ok: false; reason: "busy"; detail?: string };

export interface HelperPoolOptions {
  role: HelperRole;
  /** Helper processes at most. */
  processes: number;
  /** Work time per job, counted from when a helper takes it, in ms. */
  budgetMs: number;
  /** Longest a job may wait for a helper, in ms; then it ends as "busy". */
  maxWaitMs: number;
  /** An idle helper is stopped after this long. */
  idleMs: number;
  memory: HelperLimits;
  /** A helper left above this resident size by a job is stopped, MB. */
  recycleMb: number;
}

interface Job<T> {
  owner: string;
  input: unknown;
  payload: Uint8Array | undefined;
  budgetMs: number;
  resolve(o: PoolOutcome<T>): void;
  wait: ReturnType<typeof setTimeout>;
}

interface Slot<T> {
  helper: HelperProcess<T> | null;
  owner: string | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

export class HelperPool<T> {
  private readonly slots: Slot<T>[];
  private readonly queue = new FairQueue<Job<T>>();
  private readonly running = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: HelperPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.processes) }, () => ({ helper: null, owner: null, idleTimer: null }));
  }

  /** Most jobs one owner runs at once while others may be waiting: all helpers but one. */
  private get perOwner(): number {
    return Math.max(1, this.slots.length - 1);
  }

  run(owner: string, input: unknown, payload?: Uint8Array, budgetMs = this.options.budgetMs): Promise<PoolOutcome<T>> {
    if (this.closed) return Promise.resolve({ ok: false, reason: "error", detail: "closed" });
    return new Promise((resolve) => {
      const job: Job<T> = { owner, input, payload, budgetMs, resolve, wait: setTimeout(() => this.giveUp(job), this.options.maxWaitMs) };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Stops every helper; waiting jobs end as errors. */
  close(): void {
    this.closed = true;
    for (const job of this.queue.drain()) this.finish(job, { ok: false, reason: "error", detail: "closed" });
    for (const slot of this.slots) this.release(slot);
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.owner !== null) continue;
      const job = this.queue.take((owner) => (this.running.get(owner) ?? 0) < this.perOwner);
      if (!job) return;
      void this.start(slot, job);
    }
  }

  private async start(slot: Slot<T>, job: Job<T>): Promise<void> {
    clearTimeout(job.wait);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.owner = job.owner;
    this.running.set(job.owner, (this.running.get(job.owner) ?? 0) + 1);
    const outcome = await this.runOn(slot, job);
    const left = (this.running.get(job.owner) ?? 1) - 1;
    if (left) this.running.set(job.owner, left);
    else this.running.delete(job.owner);
    slot.owner = null;
    this.afterJob(slot);
    job.resolve(outcome);
    this.pump();
  }

  /** The job on the slot's helper, started if need be; a helper that cannot be started (EAGAIN, EMFILE) is the job's error. */
  private async runOn(slot: Slot<T>, job: Job<T>): Promise<PoolOutcome<T>> {
    try {
      if (!slot.helper || slot.helper.exited) slot.helper = this.spawn(slot);
      return await slot.helper.run(job.input, job.payload, job.budgetMs);
    } catch (err) {
      return { ok: false, reason: "error", detail: err instanceof Error ? err.message : String(err) };
    }
  }

  private spawn(slot: Slot<T>): HelperProcess<T> {
    const helper: HelperProcess<T> = new HelperProcess<T>(this.options.role, this.options.memory, () => {
      if (slot.helper === helper) slot.helper = null;
    });
    return helper;
  }

  /** Keeps the helper for the next job unless it is gone, grew large, or the pool is closing. */
  private afterJob(slot: Slot<T>): void {
    const helper = slot.helper;
    if (!helper || helper.exited) return void (slot.helper = null);
    const resident = helper.resident();
    if (this.closed || (resident !== null && resident > this.options.recycleMb * 1024 * 1024)) return this.release(slot);
    slot.idleTimer = setTimeout(() => {
      if (slot.owner === null) this.release(slot);
    }, this.options.idleMs);
    slot.idleTimer.unref?.();
  }

  private release(slot: Slot<T>): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.helper?.stop();
    slot.helper = null;
  }

  private giveUp(job: Job<T>): void {
    if (this.queue.remove(job)) this.finish(job, { ok: false, reason: "busy" });
  }

  private finish(job: Job<T>, outcome: PoolOutcome<T>): void {
    clearTimeout(job.wait);
    job.resolve(outcome);
  }
}
