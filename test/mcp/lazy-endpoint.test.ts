// The MCP endpoint is built on the first /mcp request (src/mcp/transport/lazy-endpoint.ts): a server
// nobody has called holds none of the tools' modules (docs/performance.md "Idle memory"). Checked in
// a fresh process, whose module registry the other tests have not filled.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("the tools' modules load with the first request, not at start", async () => {
  const script = join(import.meta.dir, "..", "support", "lazy-endpoint-probe.ts");
  const proc = Bun.spawn(["bun", script], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
  expect(await proc.exited, err).toBe(0);
  expect(JSON.parse(out)).toEqual({ atStart: false, afterFirstRequest: true, status: 404 });
});

test("an idle service holds no MCP SDK and no zod; the discovery documents and /mcp's refusals still answer", async () => {
  const script = join(import.meta.dir, "..", "support", "idle-sdk-probe.ts");
  const proc = Bun.spawn(["bun", script], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
  expect(await proc.exited, err).toBe(0);
  const report = JSON.parse(out);
  expect(report).toMatchObject({ atStart: { sdk: false, zod: false }, prm: 200, unauthenticated: 401, challenge: 401, afterFirstRequest: { sdk: true } });
  expect(report.resource).toEndWith("/mcp");
});
