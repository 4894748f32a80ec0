// The content helper processes (src/mail/content/helper/), with real helpers and no servers:
// - memory (issue 19, item 1): a PDF built to exhaust memory ends as "memory" in its helper, this
//   process and its helpers together grow by less than 500 MB, and the next PDF is read;
// - fairness (item 7): one token's slow documents do not hold up another token's, and waiting for a
//   helper does not use up a job's budget of work time;
// - the wire: frames split anywhere arrive whole.
import { afterAll, describe, expect, test } from "bun:test";
import { HtmlConverter } from "../../src/mail/content/html-text/converter.ts";
import { FairQueue } from "../../src/mail/content/helper/fair-queue.ts";
import { encodeFrame, FrameReader, FrameTooLarge } from "../../src/mail/content/helper/frames.ts";
import { PdfExtractor } from "../../src/mail/content/pdf-text/extract.ts";
import { cmapBombPdf, flateBombPdf } from "../support/hostile-pdf.ts";
import { tinyPdf } from "../support/pdf.ts";
import { watchTree } from "../support/process-tree.ts";

const MB = 1024 * 1024;
const wideTable = (cells: number) => `<table><tr>${"<td>x</td>".repeat(cells)}</tr></table>`;

describe("a PDF built to exhaust memory", () => {
  // Default limits, but a budget long enough that a loaded machine still ends these on memory.
  const extractor = new PdfExtractor({ budgetMs: 60_000 });
  afterAll(() => extractor.close());

  for (const [name, pdf] of [
    ["a ToUnicode CMap mapping <000000>-<ffffff>, used by 3 fonts", cmapBombPdf(3)],
    ["a flate stream inflating to 1 GB", flateBombPdf(1024)],
  ] as const) {
    test(`${name} (${pdf.length} bytes): "memory", less than 500 MB grown, the next PDF is read`, async () => {
      await extractor.extract(tinyPdf([["warm"]]), 100, "warm-up"); // a helper running, as on a server in use
      Bun.gc(true);
      const watch = watchTree(process.pid);
      const before = watch.peak;
      const outcome = await extractor.extract(pdf, 1000, "sender");
      const grown = watch.stop() - before;
      console.log(`${name}: ${outcome.kind}, this process and its helpers grew by at most ${Math.round(grown / MB)} MB`);
      expect(outcome).toEqual({ kind: "memory" });
      expect(grown).toBeLessThan(500 * MB); // in a worker thread (before) this PDF took 1.4-1.7 GB of this process
      expect(await extractor.extract(tinyPdf([["after"]]), 100, "sender")).toMatchObject({ kind: "text", text: "after" });
    }, 90_000);
  }
});

describe("fair shares", () => {
  test("one token keeping four slow documents in flight does not hold up another token's", async () => {
    const converter = new HtmlConverter({ processes: 2, budgetMs: 60_000, idleMs: 5_000 });
    try {
      let hogDone = 0;
      const hog = Array.from({ length: 4 }, () => converter.convert(wideTable(400_000), "hog").finally(() => hogDone++));
      const quick = await converter.convert("<p>mine</p>", "other");
      expect(quick).toEqual({ ok: true, text: "mine" });
      expect(hogDone).toBe(0); // one shared queue (before) had it wait behind all four
      converter.close();
      await Promise.all(hog);
    } finally {
      converter.close();
    }
  }, 30_000);

  test("waiting for a helper does not use up a job's budget; work past it does", async () => {
    const converter = new HtmlConverter({ processes: 1, idleMs: 5_000 });
    try {
      const slow = converter.convert(wideTable(400_000), "a", 500);
      const queued = converter.convert("<p>after the slow one</p>", "a", 2_000); // waits ~500 ms, works a few
      // Stopped either way: by its budget, or (on a loaded machine, before the budget ran out) by the
      // memory ceiling this wide table also reaches. What matters here is the job queued behind it.
      const stopped = await slow;
      expect(stopped.ok).toBe(false);
      expect(["timeout", "memory"]).toContain((stopped as { reason: string }).reason);
      expect(await queued).toEqual({ ok: true, text: "after the slow one" });
    } finally {
      converter.close();
    }
  }, 30_000);

  test("a job that cannot get a helper within the longest wait is 'busy'", async () => {
    const converter = new HtmlConverter({ processes: 1, budgetMs: 20_000, maxWaitMs: 200, idleMs: 5_000 });
    try {
      const slow = converter.convert(wideTable(400_000), "a");
      expect(await converter.convert("<p>x</p>", "b")).toEqual({ ok: false, reason: "busy" });
      converter.close();
      expect(await slow).toEqual({ ok: false, reason: "error" });
    } finally {
      converter.close();
    }
  }, 30_000);

  test("the queue takes owners in turn, each owner's jobs in order, skipping owners at their share", () => {
    const q = new FairQueue<{ owner: string; n: number }>();
    for (const [owner, n] of [["a", 1], ["a", 2], ["a", 3], ["b", 1], ["c", 1], ["b", 2]] as const) q.push({ owner, n });
    const order: string[] = [];
    for (let job = q.take(() => true); job; job = q.take(() => true)) order.push(`${job.owner}${job.n}`);
    expect(order).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
    q.push({ owner: "a", n: 4 });
    q.push({ owner: "b", n: 3 });
    expect(q.take((owner) => owner !== "a")).toEqual({ owner: "b", n: 3 });
    expect(q.size).toBe(1);
  });
});

describe("frames", () => {
  test("split at every byte, two frames arrive whole and in order; an oversized one is refused", () => {
    const bytes = new Uint8Array([...encodeFrame({ id: 1, input: { want: 3 } }, new Uint8Array([1, 2, 3])), ...encodeFrame({ id: 2 })]);
    const reader = new FrameReader(1024);
    const frames = [...bytes].flatMap((b) => reader.push(new Uint8Array([b])));
    expect(frames.map((f) => [f.header, [...f.payload]])).toEqual([[{ id: 1, input: { want: 3 } }, [1, 2, 3]], [{ id: 2 }, []]]);
    expect(() => new FrameReader(16).push(encodeFrame({ id: 3 }, new Uint8Array(64)))).toThrow(FrameTooLarge);
  });
});
