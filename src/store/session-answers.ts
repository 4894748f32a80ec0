// Answers to a server's request (an elicitation) on a 2025-era session that reached another
// instance than the one waiting for them (docs/decisions.md "Confirmation across instances"). The
// instance that receives a JSON-RPC response it is not waiting for files it here; the instance that
// is waiting reads the rows of its session, plays them into its own transport, and deletes them.
import type { Clock } from "../clock.ts";
import type { Db } from "./db.ts";
import { int } from "./values.ts";

/** A relayed answer nobody took is dropped after this (longer than any confirmation stays open). */
export const ANSWER_RETENTION_MS = 15 * 60_000;

export interface SessionAnswer {
  id: number;
  body: string;
}

export class SessionAnswers {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async put(sessionKey: string, body: string): Promise<void> {
    await this.db.q`INSERT INTO mcp_session_answers (session_key, body, at) VALUES (${sessionKey}, ${body}, ${this.clock()})`;
  }

  /** Takes (reads and deletes) the answers filed for these sessions, oldest first. */
  async take(sessionKeys: readonly string[]): Promise<Array<SessionAnswer & { sessionKey: string }>> {
    if (!sessionKeys.length) return [];
    const rows = await this.db.q<Record<string, unknown>>`
      DELETE FROM mcp_session_answers WHERE session_key IN ${this.db.list(sessionKeys)} RETURNING id, session_key, body`;
    return rows.map((r) => ({ id: int(r.id), sessionKey: r.session_key as string, body: r.body as string })).sort((a, b) => a.id - b.id);
  }

  async purge(): Promise<void> {
    await this.db.q`DELETE FROM mcp_session_answers WHERE at <= ${this.clock() - ANSWER_RETENTION_MS}`;
  }
}
