// The document helper under the bounds, through the real helper process: a 10 MB workbook
// of 200,000 cells, and zip bombs, while the server's own memory and event loop are watched.
// Timings are printed for the report; the assertions are generous (the work budget, not 3 s).
import { afterAll, expect, test } from "bun:test";
import { DocumentReader } from "../../src/mail/content/documents/reader.ts";
import { readDocument } from "../../src/mail/content/documents/read-document.ts";
import { xlsx, zipBomb } from "../support/documents.ts";

const MB = 1024 * 1024;
const reader = new DocumentReader();
afterAll(() => reader.close());

/** 200,000 cells (10,000 rows × 20 columns) of distinct random text: ~10 MB zipped. */
function bigWorkbook(): Buffer {
  const CHARS = 55;
  const random = Buffer.alloc(200_000 * CHARS);
  for (let at = 0; at < random.length; at += 65_536) crypto.getRandomValues(random.subarray(at, at + 65_536));
  const text = random.toString("base64");
  let cell = 0;
  const rows = Array.from({ length: 10_000 }, () => Array.from({ length: 20 }, () => text.slice(cell * CHARS, ++cell * CHARS)));
  return xlsx({ Data: rows });
}

/** Largest gap between 10 ms ticks while `work` runs: what a /health request would wait at most. */
async function loopLag<T>(work: () => Promise<T>): Promise<{ value: T; lagMs: number }> {
  let last = performance.now();
  let lagMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { value: await work(), lagMs };
  } finally {
    clearInterval(tick);
  }
}

test("a 10 MB workbook of 200,000 cells: text within the work budget, at most what was asked, rows left out said", async () => {
  const book = bigWorkbook();
  expect(book.length).toBeGreaterThan(9 * MB);
  expect(book.length).toBeLessThanOrEqual(10 * MB);
  await reader.read(new Uint8Array(10), "csv", null, 10); // the helper started, so only the reading is timed
  const started = performance.now();
  const r = await reader.read(book, "xlsx", null, 200_000);
  const ms = performance.now() - started;
  console.log(`10 MB xlsx (${(book.length / MB).toFixed(1)} MB, 200,000 cells): ${ms.toFixed(0)} ms`);
  if (r.kind !== "text") throw new Error(`not read: ${JSON.stringify(r)}`);
  expect(r.text.length).toBeLessThanOrEqual(2 * 200_000 + 1 + 2000);
  expect(r.omitted.join()).toMatch(/^Sheet 1: Data: \d+ more non-empty row\(s\) not shown$/);
  expect(ms).toBeLessThan(reader.options.budgetMs);
}, 60_000);

test("a 1 KB zip bomb: refused with a reason; the server grows < 20 MB and its event loop stays free", async () => {
  const bomb = zipBomb(1536 * MB, 512 * 1024, true);
  expect(bomb.length).toBeLessThan(1024);
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  const { value, lagMs } = await loopLag(() => reader.read(bomb, "xlsx", null, 20_000));
  const grew = (process.memoryUsage().rss - before) / MB;
  console.log(`1 KB zip bomb (${bomb.length} bytes): server RSS +${grew.toFixed(1)} MB, event loop lag ${lagMs.toFixed(0)} ms`);
  expect(value).toMatchObject({ kind: "refused" });
  expect((value as { reason: string }).reason).toContain("zip bomb");
  expect(grew).toBeLessThan(20);
  expect(lagMs).toBeLessThan(250);
});

test("guard: with the checks from the directory off, the lying entry is still stopped while inflating", () => {
  // A bomb that states its real size past the ratio is refused from the directory; one that
  // understates it passes the directory and must be caught by the count kept while inflating.
  const liar = zipBomb(100, 4 * MB);
  const r = readDocument({ format: "xlsx", want: 1000, charset: null }, liar);
  expect(r).toMatchObject({ kind: "refused" });
  expect((r as { reason: string }).reason).toContain("expands past the 100 bytes it declares");
});
