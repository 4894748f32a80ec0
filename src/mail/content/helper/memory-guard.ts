// The helper's own memory ceiling (docs/decisions.md "Content helpers"): a thread of the helper
// reads its resident size every 10 ms and kills the whole process (SIGKILL, which nothing can
// delay) once it is past the ceiling the server gave it (./spawn.ts, through ./protocol.ts). A thread, because the
// helper's main thread is the one busy in PDF.js when memory runs away, and a thread of its own
// needs nothing from the server's event loop: a CMap bomb grows a process by ~0.5 GB a second, so
// the ceiling holds within a few MB. The server's watchdog (./helper-process.ts) stays as the
// second line. Linux only (/proc); elsewhere only the server's budget of work time applies.
import { MEMORY_ENV } from "./protocol.ts";

const EVERY_MS = 10;

/** Starts the guard thread when a ceiling was given; the code is inline (a Blob URL), so it is in the executable too. */
export function startMemoryGuard(): void {
  const mb = Number(process.env[MEMORY_ENV]);
  if (process.platform !== "linux" || !(mb > 0)) return;
  const code = `
    const { readFileSync } = require("node:fs");
    const limit = ${Math.round(mb * 1024 * 1024)};
    setInterval(() => {
      let kb = 0;
      try { kb = Number(/^VmRSS:\\s+(\\d+) kB/m.exec(readFileSync("/proc/self/status", "latin1"))?.[1] ?? 0); } catch {}
      if (kb * 1024 > limit) process.kill(process.pid, "SIGKILL");
    }, ${EVERY_MS});`;
  const guard = new Worker(URL.createObjectURL(new Blob([code], { type: "application/javascript" })));
  (guard as Worker & { unref(): void }).unref();
}
