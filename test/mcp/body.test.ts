// src/http/body/mcp.ts and src/mcp/transport/rpc-body.ts: a declared body is read whole, a chunked one within the limit; and sendWhole, which
// sends a finished SSE answer in one piece but lets a stream that is still open stream on.
import { describe, expect, test } from "bun:test";
import { primeSse, sendWhole } from "../../src/mcp/transport/rpc-body.ts";
import { BodyTimeout, readLimited } from "../../src/http/body/reader.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const sse = (body: ReadableStream<Uint8Array>) => new Response(body, { headers: { "content-type": "text/event-stream", "mcp-session-id": "s" } });

describe("readLimited", () => {
  test("declared length: read whole, or null over the limit", async () => {
    const req = (body: string) => new Request("http://x/", { method: "POST", body, headers: { "content-length": String(body.length) } });
    expect(await readLimited(req("{}"), 10)).toBe("{}");
    expect(await readLimited(req("x".repeat(11)), 10)).toBeNull();
  });

  test("chunked: counted as it comes", async () => {
    const req = (parts: string[]) => new Request("http://x/", { method: "POST", body: new ReadableStream({ start(c) { parts.forEach((p) => c.enqueue(enc(p))); c.close(); } }) });
    expect(await readLimited(req(["ab", "cd"]), 10)).toBe("abcd");
    expect(await readLimited(req(["abcdef", "ghijk"]), 10)).toBeNull();
  });
});

describe("readLimited deadline", () => {
  test("a body that does not arrive in time is a BodyTimeout", async () => {
    const req = new Request("http://x/", { method: "POST", body: new ReadableStream({ start(c) { c.enqueue(enc("ab")); } }) });
    await expect(readLimited(req, 10, 20)).rejects.toBeInstanceOf(BodyTimeout);
  });
});

describe("onEnd (the idle timeout is put back when the answer is over)", () => {
  test("once, when a complete answer is sent, a stream ends, or the client cancels", async () => {
    let n = 0;
    await sendWhole(sse(new ReadableStream({ start(c) { c.enqueue(enc("a")); c.close(); } })), () => n++);
    expect(n).toBe(1);
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const open = await sendWhole(sse(new ReadableStream({ start(c) { ctl = c; c.enqueue(enc("a")); } })), () => n++);
    expect(n).toBe(1);
    ctl.close();
    await open.text();
    expect(n).toBe(2);
    const stream = primeSse(sse(new ReadableStream({ start(c) { c.enqueue(enc("e")); } })), () => n++);
    const reader = stream.body!.getReader();
    await reader.read();
    await reader.cancel();
    await reader.cancel().catch(() => {});
    expect(n).toBe(3);
    primeSse(new Response(null, { status: 404 }), () => n++);
    expect(n).toBe(4);
  });
});

describe("sendWhole", () => {
  test("an answer already complete that is one message goes out as that message, application/json, headers kept", async () => {
    const message = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "a\nb → ü" }] } });
    const res = await sendWhole(sse(new ReadableStream({ start(c) { c.enqueue(enc(`event: message\ndata: ${message}\n\n`)); c.close(); } })));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("mcp-session-id")).toBe("s");
    expect(await res.text()).toBe(message);
  });

  test("an answer complete but not exactly one message event stays SSE, as it came", async () => {
    for (const body of ["event: message\nid: 1\ndata: {}\n\n", ": comment\n\n", "event: message\ndata: {}\n\nevent: message\ndata: {}\n\n", "event: message\ndata: {}\n"]) {
      const res = await sendWhole(sse(new ReadableStream({ start(c) { c.enqueue(enc(body)); c.close(); } })));
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(await res.text()).toBe(body);
    }
  });

  test("a stream still open after its first event is returned at once and streams on", async () => {
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const res = await sendWhole(sse(new ReadableStream({ start(c) { ctl = c; c.enqueue(enc("a")); } })));
    ctl.enqueue(enc("b"));
    ctl.close();
    expect(await res.text()).toBe("ab");
  });

  test("a stream closed without an event (the session closed under the call) ends the answer, not hangs it", async () => {
    const res = await sendWhole(sse(new ReadableStream({ start(c) { c.close(); } })));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("a client going away cancels the SDK's stream", async () => {
    let cancelled = false;
    const res = await sendWhole(sse(new ReadableStream({ start(c) { c.enqueue(enc("a")); }, cancel() { cancelled = true; } })));
    await res.body!.cancel();
    expect(cancelled).toBe(true);
  });

  test("anything but SSE passes through untouched", async () => {
    const json = new Response("{}", { headers: { "content-type": "application/json" } });
    expect(await sendWhole(json)).toBe(json);
    const accepted = new Response(null, { status: 202 });
    expect(await sendWhole(accepted)).toBe(accepted);
  });
});
