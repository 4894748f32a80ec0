// POSTs to /mcp still being answered, per token, so that revoking a token answers them at once
// with a JSON-RPC error instead of leaving the client waiting on a tool whose mail connection and
// session are being torn down (they would end with an empty 200 or hang until the client gives up).

/** JSON-RPC's implementation-defined server error range (-32000 to -32099). */
const REVOKED_CODE = -32001;

export class InFlight {
  private readonly waiting = new Map<string, Set<() => void>>();

  /**
   * The answer `work` produces, or an error answer for `body`'s requests as soon as the token is
   * revoked, whichever comes first. A session closed under the call (empty answer) also gets one.
   */
  async answer(tokenId: string, body: unknown, work: Promise<Response>, onAbandon: () => void = () => {}): Promise<Response> {
    let cancel!: () => void;
    const revoked = new Promise<"revoked">((resolve) => { cancel = () => resolve("revoked"); });
    const mine = this.waiting.get(tokenId) ?? new Set();
    mine.add(cancel);
    this.waiting.set(tokenId, mine);
    try {
      const first = await Promise.race([work, revoked]);
      if (first === "revoked") {
        work.catch(() => {}); // its session is closing; what it says now goes nowhere
        onAbandon();
        return errorAnswer(body, "The access token was revoked while this call ran: reconnect the mailbox.");
      }
      if (first.status === 200 && first.body === null && requestIds(body).length) {
        return errorAnswer(body, "The MCP session ended while this call ran: start a new session and try again.");
      }
      return first;
    } finally {
      mine.delete(cancel);
      if (!mine.size) this.waiting.delete(tokenId);
    }
  }

  /** Answers every call of the token in flight now. Call before closing its sessions. */
  revoke(tokenId: string): void {
    for (const cancel of this.waiting.get(tokenId) ?? []) cancel();
  }
}

/** Ids of the JSON-RPC requests in a body (notifications and responses have none to answer). */
function requestIds(body: unknown): Array<string | number> {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.flatMap((m) => {
    const r = m as { id?: unknown; method?: unknown } | null;
    return r && typeof r.method === "string" && (typeof r.id === "string" || typeof r.id === "number") ? [r.id] : [];
  });
}

function errorAnswer(body: unknown, message: string): Response {
  const errors = requestIds(body).map((id) => ({ jsonrpc: "2.0", id, error: { code: REVOKED_CODE, message } }));
  const payload = Array.isArray(body) ? errors : errors[0] ?? { jsonrpc: "2.0", id: null, error: { code: REVOKED_CODE, message } };
  return new Response(JSON.stringify(payload), { status: 200, headers: { "content-type": "application/json" } });
}
