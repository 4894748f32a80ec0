// The SMTP server for the bench's send_email row, in a process of its own: run inside the bench
// process (as the test harness does), the direct baseline's SMTP dialogue would stay in one process
// while the server's crosses two, and the direct row would save ~0.35 ms per send that no real SMTP
// server grants. Reads the harness users (for AUTH) as JSON from argv[2], prints {port} as one JSON
// line on stdout, then serves until killed. Recipients are not local: nothing is delivered.
import type { DovecotServer } from "../test/support/dovecot.ts";
import { startSmtp } from "../test/support/smtp.ts";

const users = JSON.parse(process.argv[2] ?? "{}") as DovecotServer["users"];
const smtp = await startSmtp({ users, deliver: async () => {} } as unknown as DovecotServer);
setInterval(() => { smtp.messages.length = 0; }, 1000); // recorded bench mail is no use to anyone
process.stdout.write(JSON.stringify({ port: smtp.port }) + "\n");
