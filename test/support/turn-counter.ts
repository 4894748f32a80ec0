// A loopback TCP relay with no delay that counts the client's turns: a turn is what the client
// writes before the server answers it (one write or several in a row). Commands pipelined in one
// turn cost one round trip on a real network; commands that each wait for an answer cost one each.
import { createConnection, createServer, type Socket } from "node:net";

export interface TurnCounter {
  port: number;
  /** Client turns since the last reset, summed over connections (the greeting does not count: the server speaks first). */
  turns: number;
  reset(): void;
  stop(): void;
}

export async function startTurnCounter(target: { host: string; port: number }): Promise<TurnCounter> {
  const sockets = new Set<Socket>();
  // Each connection's own: who spoke last on it (turns on parallel connections add up).
  let lasts = new Map<Socket, "client" | "server">();
  const counter: TurnCounter = { port: 0, turns: 0, reset: () => { counter.turns = 0; lasts = new Map(); }, stop: () => {
    for (const s of sockets) s.destroy();
    server.close();
  } };
  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) { sockets.add(s); s.setNoDelay(true); s.on("error", () => {}); }
    client.on("data", (c: Buffer) => { if (lasts.get(client) !== "client") counter.turns++; lasts.set(client, "client"); upstream.write(c); });
    upstream.on("data", (c: Buffer) => { lasts.set(client, "server"); client.write(c); });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counter.port = (server.address() as { port: number }).port;
  return counter;
}
