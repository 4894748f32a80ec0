// Generated JSON-RPC 2.0 messages for the MCP SDK's type guards: requests, notifications, result and
// error responses and initialize requests, valid and one edit away from valid (a member dropped,
// added, or of the wrong type), as JSON would carry them and as only JavaScript can build them (an
// inherited, non-enumerable or undefined member, a null prototype, a getter).
import type { Rng } from "../support/seeded.ts";

type Message = Record<string, unknown>;

const IDS: unknown[] = [1, 0, -1, 42, 1.5, "abc", "", null, true, {}, [], NaN, 2 ** 53, "1"];
const METHODS: unknown[] = ["tools/call", "tools/list", "initialize", "notifications/initialized", "ping", "", 5, null];
const MEMBERS = ["jsonrpc", "id", "method", "params", "result", "error", "extra", "_meta"];

function odd(rng: Rng): unknown {
  return rng.pick([undefined, null, 0, 1.5, "", "x", true, [], {}, [1], { a: 1 }, "2.0", -32600]);
}

function params(rng: Rng): unknown {
  if (rng.chance(0.8)) {
    return rng.pick<unknown>([{}, { _meta: { progressToken: rng.pick([1, "t", 1.5, null]) } }, { name: "get_email", arguments: { id: "7" } },
      { _meta: { "io.modelcontextprotocol/related-task": { taskId: rng.pick(["t1", 5]) } } }, { cursor: "c" }]);
  }
  return odd(rng);
}

function initializeParams(rng: Rng): unknown {
  const p: Message = {
    protocolVersion: rng.pick(["2025-06-18", "2025-11-25", 2025]),
    capabilities: rng.pick<unknown>([{}, { roots: { listChanged: true } }, { sampling: {} }, { elicitation: {} }, { roots: { listChanged: "yes" } }]),
    clientInfo: rng.pick<unknown>([{ name: "c", version: "1" }, { name: "c" }, { name: "c", version: "1", title: "C" }, "c"]),
  };
  if (rng.chance(0.15)) delete p[rng.pick(Object.keys(p))];
  return p;
}

/** A valid message of one of the five kinds. */
function valid(rng: Rng): Message {
  const id = rng.chance(0.8) ? rng.pick([1, 0, 42, "abc", "", "x-1"]) : rng.pick(IDS);
  switch (rng.int(5)) {
    case 0: return { jsonrpc: "2.0", id, method: rng.pick(METHODS), ...(rng.chance(0.7) ? { params: params(rng) } : {}) };
    case 1: return { jsonrpc: "2.0", method: rng.pick(METHODS), ...(rng.chance(0.7) ? { params: params(rng) } : {}) };
    case 2: return { jsonrpc: "2.0", id, result: rng.pick<unknown>([{}, { content: [] }, { _meta: { a: 1 } }, { tools: [] }, odd(rng)]) };
    case 3: {
      const error: Message = { code: rng.pick([-32600, -32601, 1, 1.5, "x"]), message: rng.pick(["bad", 5]) };
      if (rng.chance(0.3)) error.data = odd(rng);
      return { jsonrpc: "2.0", ...(rng.chance(0.8) ? { id } : {}), error: rng.chance(0.9) ? error : odd(rng) };
    }
    default: return { jsonrpc: "2.0", id, method: rng.chance(0.9) ? "initialize" : "Initialize", params: initializeParams(rng) };
  }
}

/** Edits as JSON could carry them: a member dropped, added, or given another value. */
function edit(rng: Rng, message: Message): Message {
  const copy: Message = { ...message };
  for (let n = rng.between(1, 2); n > 0; n--) {
    const key = rng.pick(MEMBERS);
    if (rng.chance(0.4)) delete copy[key];
    else copy[key] = key === "jsonrpc" ? rng.pick(["2.0", "1.0", 2, undefined]) : key === "id" ? rng.pick(IDS) : odd(rng);
  }
  return copy;
}

/** What only JavaScript can build: the same members, reached another way. */
function reshape(rng: Rng, message: Message): unknown {
  const key = rng.pick(Object.keys(message).length ? [...Object.keys(message), "id"] : ["id"]);
  const rest: Message = { ...message };
  const value = key in message ? message[key] : rng.pick(IDS);
  delete rest[key];
  switch (rng.int(6)) {
    case 0: return Object.assign(Object.create({ [key]: value }), rest);
    case 1: return Object.defineProperty(rest, key, { value, enumerable: false });
    case 2: return Object.assign(Object.create(null), message);
    case 3: return Object.defineProperty(rest, key, { get: () => value, enumerable: true });
    case 4: return { ...message, [key]: undefined };
    default: {
      // JSON.parse makes "__proto__" an own member; the members of its value are not the message's.
      const others = JSON.stringify(rest).slice(1, -1);
      return JSON.parse(`{"__proto__": ${JSON.stringify({ [key]: value ?? null })}${others ? `, ${others}` : ""}}`);
    }
  }
}

export function jsonRpcValue(rng: Rng): unknown {
  const w = rng.int(100);
  if (w < 35) return valid(rng);
  if (w < 75) return edit(rng, valid(rng));
  if (w < 93) return reshape(rng, rng.chance(0.6) ? valid(rng) : edit(rng, valid(rng)));
  if (w < 97) return [valid(rng)];
  return rng.pick<unknown>([null, undefined, "x", 1, true, () => 1, new Date(0), new Map()]);
}

/** A value as its members really are (inherited, non-enumerable, getters), for a failure message. */
export function showValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const members = (of: object) =>
    Object.fromEntries(Object.entries(Object.getOwnPropertyDescriptors(of)).map(([key, d]) =>
      [key, `${d.get ? "getter" : Bun.inspect(d.value)}${d.enumerable ? "" : " (not enumerable)"}`]));
  const proto = Object.getPrototypeOf(value);
  return { members: members(value), prototype: proto === null ? null : proto === Object.prototype ? "Object" : members(proto) };
}
