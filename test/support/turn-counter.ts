// A loopback TCP relay with no delay that counts the client's turns: a turn is what the client
// writes before the server answers it (one write or several in a row). Commands pipelined in one
// turn cost one round trip on a real network; commands that each wait for an answer cost one each.
// Waiting for the greeting is a turn too: on a real network the greeting comes a round trip after
// the client could have written (it rides on the handshake's last ACK, RFC 9293 §3.5), so a first
// write made after the greeting counts two, one made before it counts one. The TCP handshake itself
// is not counted (add one for the round trips of a new connection).
import { createConnection, createServer, type Socket } from "node:net";

export interface TurnCounter {
  port: number;
  /** Client turns since the last reset, summed over connections. */
  turns: number;
  reset(): void;
  stop(): void;
}

type Spoke = "none" | "greeted" | "client" | "server";

/** Counts a client write on a connection where `last` spoke last: the turns it adds. */
export function turnsOf(last: Spoke): number {
  return last === "greeted" ? 2 : last === "client" ? 0 : 1;
}

export async function startTurnCounter(target: { host: string; port: number }): Promise<TurnCounter> {
  const sockets = new Set<Socket>();
  // Each connection's own: who spoke last on it (turns on parallel connections add up).
  const lasts = new Map<Socket, Spoke>();
  const counter: TurnCounter = { port: 0, turns: 0, reset: () => { counter.turns = 0; }, stop: () => {
    for (const s of sockets) s.destroy();
    server.close();
  } };
  const server = createServer((client) => {
    const upstream = createConnection(target);
    lasts.set(client, "none");
    for (const s of [client, upstream]) { sockets.add(s); s.setNoDelay(true); s.on("error", () => {}); }
    client.on("data", (c: Buffer) => { counter.turns += turnsOf(lasts.get(client)!); lasts.set(client, "client"); upstream.write(c); });
    upstream.on("data", (c: Buffer) => { lasts.set(client, lasts.get(client) === "none" ? "greeted" : "server"); client.write(c); });
    client.on("close", () => { upstream.destroy(); lasts.delete(client); });
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counter.port = (server.address() as { port: number }).port;
  return counter;
}
