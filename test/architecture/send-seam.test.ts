// "Every send passes the gate" as code (docs/architecture.md "Sending"): the function that hands a
// message to SMTP (src/sending/deliver.ts) is imported only inside src/sending/, the SMTP pool's
// module only by the connections that build it (src/mail/connections.ts) or for its types, and
// nothing outside src/sending/ calls a pool's send.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { imports, resolveSpecifier, ROOT, sourceFiles, stripComments } from "./import-graph.ts";

const DELIVER = "src/sending/deliver.ts";
const POOL = "src/mail/smtp/pool.ts";
/** Builds the pool (a service's connections); never sends on it. */
const POOL_BUILDER = "src/mail/connections.ts";
const SMTP_SEND = /\bsmtp\s*\??\.\s*send\s*\(/;

/** Every way a file outside src/sending/ reaches the SMTP hand-off, in words. */
function breaches(files: Array<{ file: string; source: string }>): string[] {
  const found: string[] = [];
  for (const { file, source } of files) {
    const rel = relative(ROOT, file);
    if (rel.startsWith("src/sending/")) continue;
    for (const i of imports(source)) {
      const target = resolveSpecifier(file, i.spec);
      const to = target && relative(ROOT, target);
      if (to === DELIVER) found.push(`${rel} imports ${DELIVER}`);
      if (to === POOL && !i.typeOnly && rel !== POOL_BUILDER) found.push(`${rel} imports ${POOL} for more than its types`);
    }
    if (SMTP_SEND.test(stripComments(source))) found.push(`${rel} calls an SMTP pool's send`);
  }
  return found;
}

const src = () => sourceFiles().map((file) => ({ file, source: readFileSync(file, "utf8") }));

describe("the send seam", () => {
  test("only src/sending/ reaches the SMTP hand-off", () => {
    expect(breaches(src())).toEqual([]);
  });

  test("the hand-off is where the check looks, and src/sending/ does use it", () => {
    const files = src();
    const inside = files.filter(({ file }) => relative(ROOT, file).startsWith("src/sending/"));
    expect(inside.some(({ file, source }) => imports(source).some((i) => relative(ROOT, resolveSpecifier(file, i.spec) ?? "") === DELIVER))).toBe(true);
    expect(inside.some(({ source }) => SMTP_SEND.test(stripComments(source)))).toBe(true);
  });

  test("fails on a tool that imports deliver, a value import of the pool, or a direct send", () => {
    const tool = `${ROOT}/src/mcp/tools/write/send-email.ts`;
    const bad = [
      { file: tool, source: `import { deliver } from "../../../sending/deliver.ts";` },
      { file: `${ROOT}/src/mcp/call-context.ts`, source: `import { SmtpPool } from "../mail/smtp/pool.ts";\nconst s = deps.mail.smtp.send(t, a, m);` },
    ];
    expect(breaches(bad)).toEqual([
      "src/mcp/tools/write/send-email.ts imports src/sending/deliver.ts",
      "src/mcp/call-context.ts imports src/mail/smtp/pool.ts for more than its types",
      "src/mcp/call-context.ts calls an SMTP pool's send",
    ]);
  });
});
