// A client's answer to a server request on a 2025-era session that reached another instance than the
// one waiting for it (docs/decisions.md "Confirmation across instances"). On such a session the
// server asks the person by sending elicitation/create on the stream of the tools/call it is
// answering (the SDK's input_required shim); the client POSTs its answer as a new request, which a
// load balancer without affinity may hand to any instance. That instance's copy of the session was
// never asked and would drop the answer, leaving the asking instance to wait until its round times
// out (10 minutes) and the message held as a draft.
//
// So each instance keeps the ids of the requests its live sessions sent and still wait on. An answer
// this instance waits for is played into its transport as usual; any other answer on a session of
// the caller's token is filed in the store (src/store/session-answers.ts) and the client gets 202. An
// instance that waits on answers reads its sessions' filed answers every POLL_MS and plays them into
// the transport that asked. Nothing is polled while nothing waits.
import type { Logger } from "../../log.ts";
import { sessionKey } from "../../store/mcp-sessions.ts";
import type { SessionAnswers } from "../../store/session-answers.ts";

/** How often a waiting instance looks for its answers filed by others. */
const POLL_MS = 250;
/** A request unanswered this long is no longer waited on (the SDK's own round timeout is 10 minutes). */
const WAIT_MS = 11 * 60_000;

type Id = string | number;

interface Waiting {
  key: string;
  ids: Map<Id, number>;
  /** Plays a JSON-RPC body into the session's transport here. */
  deliver(body: unknown): Promise<void>;
}

/** The ids of the JSON-RPC responses `body` consists of, or null when it holds anything else. */
export function responseIds(body: unknown): Id[] | null {
  const msgs = Array.isArray(body) ? body : [body];
  const ids: Id[] = [];
  for (const m of msgs) {
    const r = m as { method?: unknown; id?: unknown; result?: unknown; error?: unknown } | null;
    if (!r || typeof r !== "object" || "method" in r || (!("result" in r) && !("error" in r))) return null;
    if (typeof r.id !== "string" && typeof r.id !== "number") return null;
    ids.push(r.id);
  }
  return ids.length ? ids : null;
}

export class AnswerRelay {
  private readonly waiting = new Map<string, Waiting>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling = false;

  constructor(private readonly answers: SessionAnswers, private readonly log: Logger) {}

  /** Session `sessionId` (live here) sent request `id` to its client; its answer may arrive anywhere. */
  asked(sessionId: string, id: Id, deliver: Waiting["deliver"]): void {
    const w = this.waiting.get(sessionId) ?? { key: sessionKey(sessionId), ids: new Map(), deliver };
    w.ids.set(id, Date.now());
    w.deliver = deliver;
    this.waiting.set(sessionId, w);
    this.timer ??= setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref?.();
  }

  /** Whether the poll is running (something is waited on), for tests and health. */
  get watching(): boolean {
    return this.timer !== null;
  }

  /** Shutdown: nothing is waited on any more, and the poll stops (the store it reads is closing). */
  close(): void {
    for (const sessionId of [...this.waiting.keys()]) this.forget(sessionId);
  }

  /** Whether this instance waits for every one of `ids` on the session. */
  waitsHere(sessionId: string, ids: readonly Id[]): boolean {
    const w = this.waiting.get(sessionId);
    return !!w && ids.every((id) => w.ids.has(id));
  }

  /** The answers to `ids` reached the transport here. */
  answered(sessionId: string, ids: readonly Id[]): void {
    const w = this.waiting.get(sessionId);
    if (!w) return;
    for (const id of ids) w.ids.delete(id);
    if (!w.ids.size) this.forget(sessionId);
  }

  /** Files an answer for the instance that asked. */
  async file(sessionId: string, body: unknown): Promise<void> {
    await this.answers.put(sessionKey(sessionId), JSON.stringify(body));
  }

  /** The session ended here: nothing of it is waited on any more. */
  forget(sessionId: string): void {
    this.waiting.delete(sessionId);
    if (!this.waiting.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      this.expire();
      const byKey = new Map([...this.waiting].map(([id, w]) => [w.key, { id, w }]));
      if (!byKey.size) return;
      for (const row of await this.answers.take([...byKey.keys()])) {
        const mine = byKey.get(row.sessionKey);
        if (!mine) continue;
        const body = JSON.parse(row.body) as unknown;
        await mine.w.deliver(body).catch((err: Error) => this.log.error("relayed answer failed", { error: err.message }));
        this.answered(mine.id, responseIds(body) ?? []);
      }
    } catch (err) {
      this.log.error("answer relay poll failed", { error: (err as Error).message });
    } finally {
      this.polling = false;
    }
  }

  private expire(): void {
    const before = Date.now() - WAIT_MS;
    for (const [sessionId, w] of this.waiting) {
      for (const [id, at] of w.ids) if (at < before) w.ids.delete(id);
      if (!w.ids.size) this.forget(sessionId);
    }
  }
}
