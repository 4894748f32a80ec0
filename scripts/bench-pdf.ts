// `bun run bench` (BENCH_ONLY=pdf), issue 19: get_attachment on an ordinary 1-page PDF and on a
// 50-page one, through MCP (raw 2025 client) against a bench server process, with the PDF read in
// the server's content helper process (src/mail/content/helper/). Printed: p50/p95, and the peak
// resident memory during the timed calls of the server process alone and of the server with its
// helpers (what reading PDFs costs the machine). "cold" is each row's first call: for the first row
// it includes starting a helper (the process, PDF.js loading); warm-up calls precede the timed ones.
import type { getHarness } from "../test/support/harness.ts";
import { attached, withPart } from "../test/support/attachment-mail.ts";
import { connectClient } from "../test/support/mcp-client.ts";
import { tinyPdf } from "../test/support/pdf.ts";
import { watchTree } from "../test/support/process-tree.ts";
import { testAccount } from "../test/support/token.ts";
import { withImap } from "../test/mcp/seed.ts";
import { ITERATIONS, WARMUP, ms, pct, rawCaller, rssMb, startServer, type McpCaller } from "./bench-lib.ts";

const FOLDER = "BenchPdf";
const N = Math.min(ITERATIONS, 60); // a 50-page PDF takes a few hundred ms: 60 calls give a steady p50
const line = (page: number, n: number) => `Page ${page}, line ${n}: an ordinary sentence of a business document.`;
const pages = (count: number) => Array.from({ length: count }, (_, p) => Array.from({ length: 40 }, (_, n) => line(p + 1, n + 1)));

/** Like a real PDF of that length: 40 lines a page, and bytes that are not text (fonts, images) as padding. */
const PDFS = {
  "1 page": tinyPdf(pages(1), 60 * 1024),
  "50 pages": tinyPdf(pages(50), 1024 * 1024),
};

export async function pdfRows(h: Awaited<ReturnType<typeof getHarness>>): Promise<void> {
  const alice = h.dovecot.users.alice;
  const uids: Record<string, number> = {};
  await withImap(h.dovecot, alice, async (c) => {
    await c.mailboxCreate(FOLDER);
    for (const [name, pdf] of Object.entries(PDFS)) {
      uids[name] = ((await c.append(FOLDER, withPart({ subject: `bench pdf ${name}` }, attached("application/pdf", "doc.pdf", pdf)), [])) as { uid: number }).uid;
    }
  });
  const server = await startServer([testAccount(alice, h.dovecot)]);
  try {
    const url = `http://localhost:${server.port}/mcp`;
    const client = await connectClient(url, server.tokens[0]!);
    const m = rawCaller(url, server.tokens[0]!, (client.transport as { sessionId?: string }).sessionId!);
    console.log(`\nissue 19 rows: get_attachment on a PDF, ${N} calls after ${WARMUP} warm-up; the PDF is read in a helper process`);
    console.log(`${"row".padEnd(34)} ${"cold".padStart(7)} ${"p50/p95".padStart(16)}  peak RSS server  server + helpers`);
    for (const [name, pdf] of Object.entries(PDFS)) await row(m, server.pid, `get_attachment ${name}`, uids[name]!, pdf.length);
    await client.close();
  } finally {
    server.kill();
  }
}

async function row(m: McpCaller, pid: number, name: string, uid: number, bytes: number): Promise<void> {
  const call = async () => {
    const r = (await m.call("get_attachment", { folder: FOLDER, uid, part: "2" })) as { content: string };
    if (r.content !== "text") throw new Error(`${name}: no text (${JSON.stringify(r)})`);
  };
  const c0 = performance.now();
  await call();
  const cold = performance.now() - c0;
  for (let i = 0; i < WARMUP; i++) await call();
  const serverPeak = { mb: rssMb(pid) };
  const sampler = setInterval(() => { serverPeak.mb = Math.max(serverPeak.mb, rssMb(pid)); }, 20);
  const tree = watchTree(pid);
  const samples: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await call();
    samples.push(performance.now() - t);
  }
  const treePeak = tree.stop() / 1024 / 1024;
  clearInterval(sampler);
  samples.sort((a, b) => a - b);
  console.log(`${`${name} (${Math.round(bytes / 1024)} KB)`.padEnd(34)} ${ms(cold).padStart(7)} ${`${ms(pct(samples, 0.5))}/${ms(pct(samples, 0.95))}`.padStart(16)}` +
    `  ${serverPeak.mb.toFixed(0).padStart(9)} MB  ${treePeak.toFixed(0).padStart(10)} MB`);
}
