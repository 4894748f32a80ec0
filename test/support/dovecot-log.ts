// What a test Dovecot said went wrong, printed when it stops: its log goes with its temp dir, and a
// suite that failed because the mail server dropped connections (seen once under a load of 12 on
// 2 cores: AUTHENTICATE answered by a closed connection) must leave the server's own reason behind.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Every stop logs this; it is not trouble. */
const EXPECTED = /master: Warning: Killed with signal 15/;

export function reportDovecotTrouble(dir: string, port: number): void {
  const file = join(dir, "dovecot.log");
  if (!existsSync(file)) return;
  const trouble = readFileSync(file, "utf8").split("\n").filter((l) => /(Fatal|Panic|Error|Warning): /.test(l) && !EXPECTED.test(l));
  if (trouble.length) process.stderr.write(`test Dovecot on port ${port} logged trouble:\n${trouble.slice(-20).join("\n")}\n`);
}
