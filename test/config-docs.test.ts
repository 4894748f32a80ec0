// The README's settings table and docs/design.md §1 are written by hand (each says more than `--help`),
// so they are checked against the one table of settings: a row missing, extra, or with another flag fails.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { envName, flagName, SETTINGS } from "../src/config/settings-table.ts";
import { HELP } from "../src/cli.ts";

const ROOT = join(import.meta.dir, "..");

/** `env flag` of every table row between `heading` and the next heading of its level. */
function documentedRows(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = heading.split(" ")[0]!;
  const end = markdown.indexOf(`\n${level} `, start + heading.length + 2);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return section.split("\n").filter((l) => l.startsWith("| `MAILBOX_MCP_")).map((l) => {
    const [env, flag] = [...l.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    return `${env} ${flag}`;
  });
}

const expected = SETTINGS.map((r) => `${envName(r)} ${flagName(r)}`);

describe("the settings table is the one source", () => {
  test("the README's Configuration table has one row per setting, with its flag", () => {
    expect(documentedRows(readFileSync(join(ROOT, "README.md"), "utf8"), "## Configuration").sort()).toEqual([...expected].sort());
  });

  test("docs/design.md §1 has one row per setting, with its flag", () => {
    expect(documentedRows(readFileSync(join(ROOT, "docs", "design.md"), "utf8"), "## 1. Configuration").sort()).toEqual([...expected].sort());
  });

  test("--help lists every setting with its flag and environment name", () => {
    for (const row of SETTINGS) {
      expect(HELP).toContain(`  ${flagName(row)}`);
      expect(HELP).toContain(` ${envName(row)}\n`);
    }
  });

  test("the check fails on a table with a row left out", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\n\| `MAILBOX_MCP_SEND_LIMITS`[^\n]*/, "");
    expect(documentedRows(readme, "## Configuration").sort()).not.toEqual([...expected].sort());
  });
});
