// An implicit-TLS IMAP endpoint (RFC 8314 §3.3) in front of a plain-text server: it ends TLS with a
// self-signed certificate for 127.0.0.1 and localhost (./https-receiver.ts) and passes the bytes on,
// counting the client's turns after the TLS handshake as ./turn-counter.ts does. `trust()` adds the
// certificate to the process's default CAs, so the client's verification stays on.
import { createConnection, type Socket } from "node:net";
import tls from "node:tls";
import { selfSigned } from "./https-receiver.ts";
import { turnsOf } from "./turn-counter.ts";

export interface TlsImap {
  port: number;
  /** Client turns since the last reset (after the handshake; the greeting does not count). */
  turns: number;
  reset(): void;
  trust(): void;
  stop(): void;
}

export async function startTlsImap(target: { host: string; port: number }): Promise<TlsImap> {
  const { cert, key } = selfSigned();
  const defaults = tls.getCACertificates("default");
  const sockets = new Set<Socket>();
  const lasts = new Map<Socket, Parameters<typeof turnsOf>[0]>();
  const server = tls.createServer({ cert, key }, (client) => {
    const upstream = createConnection(target);
    lasts.set(client, "none");
    for (const s of [client, upstream]) { sockets.add(s); s.setNoDelay(true); s.on("error", () => {}); }
    client.on("data", (c: Buffer) => { t.turns += turnsOf(lasts.get(client)!); lasts.set(client, "client"); upstream.write(c); });
    upstream.on("data", (c: Buffer) => { lasts.set(client, lasts.get(client) === "none" ? "greeted" : "server"); client.write(c); });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const t: TlsImap = {
    port: 0, turns: 0,
    reset: () => { t.turns = 0; },
    trust: () => tls.setDefaultCACertificates([...defaults, cert]),
    stop: () => {
      tls.setDefaultCACertificates(defaults);
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.port = (server.address() as { port: number }).port;
  return t;
}
