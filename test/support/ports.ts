// Loopback port probing, apart from the Dovecot harness so that scripts/bench-server.ts can find a
// port without loading imapflow (which dovecot.ts needs): that would inflate the bench's idle RSS.
import { createServer } from "node:net";

/** Binds `port` on `host` and closes again: the port bound (a free one for 0), or null if taken. */
export function probe(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, host, () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : null));
    });
  });
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const port = await probe(0, "127.0.0.1");
  if (port === null) throw new Error("no free loopback port");
  return port;
}
