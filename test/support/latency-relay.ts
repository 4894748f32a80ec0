// A loopback TCP relay that makes a local server look `rttMs` away, as a real mail provider is
// (20-100 ms): every chunk waits rttMs/2 in each direction, in order, and a new connection waits
// one round trip before it reaches the server (the TCP handshake). It counts what it relays, so a
// bench can say how many round trips a call took.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface LatencyRelay {
  host: "127.0.0.1";
  port: number;
  rttMs: number;
  /** Connections accepted so far. */
  connections: number;
  /** Client-to-server chunks so far: roughly the commands sent (imapflow writes one per command). */
  sent: number;
  /** Server-to-client bytes so far: what a call made the server send. */
  received: number;
  stop(): Promise<void>;
}

/** Delays chunks by `delayMs` each, keeping their order (one timer per direction). */
function delayedPipe(delayMs: number, write: (chunk: Buffer) => void) {
  const queue: Array<{ due: number; chunk: Buffer | null }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drain = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length && queue[0]!.due <= now + 0.5) write(queue.shift()!.chunk ?? Buffer.alloc(0));
    if (queue.length) timer = setTimeout(drain, Math.max(0, queue[0]!.due - performance.now()));
  };
  return (chunk: Buffer) => {
    queue.push({ due: performance.now() + delayMs, chunk });
    timer ??= setTimeout(drain, delayMs); // the delay is the point (simulated distance), not a wait for anything
  };
}

function relay(client: Socket, target: { host: string; port: number }, r: LatencyRelay): void {
  const oneWay = r.rttMs / 2;
  client.pause();
  client.setNoDelay(true); // Nagle + delayed ACK would add 40 ms stalls of their own
  client.on("error", () => {});
  setTimeout(() => { // the simulated handshake round trip, not a wait for anything
    const server = createConnection(target);
    server.setNoDelay(true);
    server.on("error", () => client.destroy());
    client.on("close", () => setTimeout(() => server.destroy(), oneWay));
    server.on("close", () => setTimeout(() => client.destroy(), oneWay));
    const toServer = delayedPipe(oneWay, (c) => server.write(c));
    const toClient = delayedPipe(oneWay, (c) => client.write(c));
    client.on("data", (c: Buffer) => { r.sent++; toServer(c); });
    server.on("data", (c: Buffer) => { r.received += c.length; toClient(c); });
    client.resume();
  }, r.rttMs); // SYN, SYN-ACK: the server sees the connection one round trip later
}

export async function startLatencyRelay(target: { host: string; port: number }, rttMs = 20): Promise<LatencyRelay> {
  const sockets = new Set<Socket>();
  let server!: Server;
  const r: LatencyRelay = {
    host: "127.0.0.1", port: 0, rttMs, connections: 0, sent: 0, received: 0,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
  server = createServer((c) => {
    r.connections++;
    sockets.add(c);
    c.on("close", () => sockets.delete(c));
    relay(c, target, r);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  r.port = (server.address() as { port: number }).port;
  return r;
}
