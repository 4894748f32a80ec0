// How a test shows that the server's event loop kept serving others while some work ran: /health
// polled at a fixed interval during the work, each poll's wait recorded. The interval is the
// poll's own pace, not a wait for anything.

export interface Polled<T> {
  result: T;
  /** How long the work took, ms. */
  ms: number;
  /** The longest any /health request waited, ms. */
  worstHealth: number;
  polls: number;
}

/** Runs `work` while GET `${baseUrl}/health` is polled every `everyMs`; every poll must answer 200. */
export async function withHealthPolls<T>(baseUrl: string, work: () => Promise<T>, everyMs = 20): Promise<Polled<T>> {
  const waits: number[] = [];
  const failures: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${baseUrl}/health`);
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(res.status);
      waits.push(performance.now() - t0);
      await Bun.sleep(everyMs);
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - t0, worstHealth: Math.max(0, ...waits), polls: waits.length };
  } finally {
    done = true;
    await poll;
    if (failures.length) throw new Error(`/health answered ${failures.join(", ")} during the work`);
  }
}
