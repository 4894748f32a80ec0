// One content helper process (./spawn.ts) as the server sees it: one job at a time, each with a
// budget of work time and a memory ceiling. The helper's own guard thread kills it past `memoryMb`
// (./memory-guard.ts); a watchdog here reading its resident size every 25 ms is the second line, a
// little above. Either way the job ends as "memory", the process is gone, and the pool starts a new
// one for the next job.
import { readFileSync } from "node:fs";
import { encodeFrame, FrameReader } from "./frames.ts";
import type { HelperRole } from "./roles.ts";
import { spawnHelper } from "./spawn.ts";

export type JobOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "timeout" | "memory" | "crash" | "error"; detail?: string };

export interface HelperLimits {
  /** Resident memory the helper may reach, MB. */
  memoryMb: number;
}

/** The server's watchdog acts this far above the ceiling: the helper's own guard is meant to act first. */
const WATCHDOG_MARGIN = 1.1;

/** An answer is a text of at most a few hundred KB; a helper that sends more is misbehaving. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const WATCH_MS = 25;

/** Longest a helper may take to start and load its library; its job's budget starts after. */
const STARTUP_MS = 20_000;

interface Running<T> {
  id: number;
  resolve(o: JobOutcome<T>): void;
  timer: ReturnType<typeof setTimeout> | null;
  watch: ReturnType<typeof setInterval> | null;
}

export class HelperProcess<T> {
  private readonly proc: ReturnType<typeof spawnHelper>;
  private running: Running<T> | null = null;
  private nextId = 1;
  private ready = false;
  /** The job waiting for the helper to say it is ready. */
  private onReady: (() => void) | null = null;
  /** Why we killed it, so its exit is reported as that (a crash otherwise). */
  private killedFor: "timeout" | "memory" | "error" | null = null;
  exited = false;

  constructor(role: HelperRole, private readonly limits: HelperLimits, private readonly onExit: () => void) {
    this.proc = spawnHelper(role, limits.memoryMb);
    this.proc.unref(); // an idle helper must not keep the server's process alive
    void this.readAnswers();
    void this.proc.exited.then(() => this.ended());
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Sends one job; settles with its value or why not, within `budgetMs` of work. */
  run(input: unknown, payload: Uint8Array | undefined, budgetMs: number): Promise<JobOutcome<T>> {
    if (this.running || this.exited) return Promise.resolve({ ok: false, reason: "error", detail: "helper not ready" });
    return new Promise((resolve) => {
      const job: Running<T> = { id: this.nextId++, resolve, timer: null, watch: null };
      this.running = job;
      const send = () => {
        if (job.timer) clearTimeout(job.timer);
        job.timer = setTimeout(() => this.stop("timeout"), budgetMs);
        job.watch = residentBytes(this.proc.pid) === null ? null : setInterval(() => this.check(), WATCH_MS);
        this.write(encodeFrame({ id: job.id, input }, payload));
      };
      if (this.ready) return send();
      job.timer = setTimeout(() => this.stop("error"), STARTUP_MS);
      this.onReady = send;
    });
  }

  /** The helper's resident memory in bytes, or null where it cannot be read (not Linux). */
  resident(): number | null {
    return residentBytes(this.proc.pid);
  }

  /** Ends the process; a running job ends as `reason`. */
  stop(reason: "timeout" | "memory" | "error" = "error"): void {
    if (this.exited) return;
    this.killedFor ??= reason;
    this.proc.kill("SIGKILL");
  }

  /** A helper killed while we write gives EPIPE, asynchronously: its exit reports the job. */
  private write(bytes: Uint8Array): void {
    try {
      for (const p of [this.proc.stdin.write(bytes), this.proc.stdin.flush()]) {
        if (p instanceof Promise) p.catch(() => this.stop("error"));
      }
    } catch {
      this.stop("error");
    }
  }

  private check(): void {
    const bytes = residentBytes(this.proc.pid);
    if (bytes !== null && bytes > this.limits.memoryMb * WATCHDOG_MARGIN * 1024 * 1024) this.stop("memory");
  }

  private async readAnswers(): Promise<void> {
    const reader = new FrameReader(MAX_ANSWER_BYTES);
    try {
      for await (const chunk of this.proc.stdout) {
        for (const { header } of reader.push(chunk)) this.answer(header);
      }
    } catch {
      this.stop("error"); // an answer we cannot read: the helper is not speaking our protocol
    }
  }

  private answer(header: Record<string, unknown>): void {
    if (header.ready === true) {
      this.ready = true;
      const send = this.onReady;
      this.onReady = null;
      return send?.();
    }
    const job = this.running;
    if (!job || header.id !== job.id) return;
    if ("value" in header) return this.settle({ ok: true, value: header.value as T });
    const error = String(header.error ?? "Error");
    this.settle(error === "memory" ? { ok: false, reason: "memory" } : { ok: false, reason: "error", detail: error });
  }

  private ended(): void {
    this.exited = true;
    // A SIGKILL we did not send is the helper's own memory guard (./memory-guard.ts).
    const own = this.proc.signalCode === "SIGKILL" ? "memory" : "crash";
    this.settle({ ok: false, reason: this.killedFor ?? own, detail: `exit ${this.proc.exitCode ?? this.proc.signalCode}` });
    this.onExit();
  }

  private settle(outcome: JobOutcome<T>): void {
    const job = this.running;
    if (!job) return;
    this.running = null;
    this.onReady = null;
    if (job.timer) clearTimeout(job.timer);
    if (job.watch) clearInterval(job.watch);
    job.resolve(outcome);
  }
}

/** Resident set size from /proc/PID/status (VmRSS, in kB); null off Linux or once the process is gone. */
function residentBytes(pid: number): number | null {
  if (process.platform !== "linux") return null;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
