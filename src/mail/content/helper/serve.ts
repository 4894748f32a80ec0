// The helper process's side of ./frames.ts: jobs come in on stdin one at a time, answers go out
// on stdout, and the process ends when the server closes stdin (or dies: the pipe closes with it).
// stdout is the wire, so nothing else may write to it: console output is dropped (PDF.js reports a
// damaged document's problems there, with text chosen by whoever wrote the PDF).
import { encodeFrame, FrameReader } from "./frames.ts";
import { startMemoryGuard } from "./memory-guard.ts";

export type JobHandler = (input: unknown, payload: Uint8Array) => Promise<unknown> | unknown;

/** What a job may send us at most: a PDF of 10 MB decoded plus its header, with room. */
const MAX_JOB_BYTES = 64 * 1024 * 1024;

/**
 * Serves jobs until stdin closes. `prepare` loads what the jobs need first (PDF.js): then "ready" is
 * sent, and the server starts counting a job's budget only from there, so a helper's start-up is
 * never charged to the document it was started for.
 */
export async function serveJobs(handle: JobHandler, prepare: () => Promise<unknown> | unknown = () => {}): Promise<void> {
  for (const k of ["log", "info", "warn", "error", "debug", "trace"] as const) console[k] = () => {};
  startMemoryGuard();
  await prepare();
  process.stdout.write(encodeFrame({ ready: true }));
  const reader = new FrameReader(MAX_JOB_BYTES);
  for await (const chunk of Bun.stdin.stream()) {
    for (const { header, payload } of reader.push(chunk)) {
      const id = header.id;
      let answer: Record<string, unknown>;
      try {
        answer = { id, value: await handle(header.input, payload) };
      } catch (err) {
        // RangeError "Out of memory" when an allocation fails; RangeError "Maximum call stack size
        // exceeded" on deep nesting.
        const name = err instanceof Error ? err.name : "Error";
        answer = { id, error: /out of memory/i.test(String((err as Error)?.message)) ? "memory" : name };
      }
      process.stdout.write(encodeFrame(answer));
    }
  }
  process.exit(0);
}
