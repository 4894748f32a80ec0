// A plain TCP relay: listens on `host` (an address of this machine) and pipes every connection to
// `target` unchanged. The compose tests listen on a container network's gateway address so the
// containers there reach the harness's Dovecot and SMTP server, which listen on loopback only.
import { createConnection, createServer, type Socket } from "node:net";

export interface TcpRelay {
  host: string;
  port: number;
  /** Connections accepted so far. */
  connections: number;
  stop(): Promise<void>;
}

export async function startTcpRelay(host: string, target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = createServer((client) => {
    relay.connections++;
    const upstream = createConnection(target);
    track(client);
    track(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const relay: TcpRelay = {
    host, port: 0, connections: 0,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  relay.port = (server.address() as { port: number }).port;
  return relay;
}
