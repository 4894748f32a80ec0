// A tool call on a connection of one or several mailboxes (docs/design.md §3 "Several mailboxes"):
// the `account` argument resolved (./resolve.ts), a write refused on a mailbox connected read-only,
// a spanning read asked of every mailbox (./across.ts), and the result naming its account when the
// connection has several. A one-mailbox connection's call runs exactly as before.
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { MailboxRow } from "../../store/grant-mailboxes.ts";
import type { MailboxRef, ToolContext } from "../tools/context.ts";
import type { AnyTool } from "../tools/registry.ts";
import { toolError } from "../tools/result.ts";
import type { Across, Ask } from "./across.ts";
import type { Known } from "./plan.ts";
import { refOf, resolveAccount } from "./resolve.ts";

type Result = CallToolResult | InputRequiredResult;

/**
 * A spanning read's answer from one mailbox without its readable text: the merge words one text for
 * the merged page, so each mailbox's own would be built only to be thrown away.
 */
export type MailboxAnswerFn = (args: Record<string, unknown>, ctx: ToolContext, planned?: number) => Promise<object>;

/** What the mailbox's connection knows of the newest the call reads, sending nothing (./plan.ts); null: nothing for sure. */
export type MailboxPeekFn = (args: Record<string, unknown>, ctx: ToolContext) => Known | null;

export interface AccountCall {
  tool: AnyTool & { across?: Across; answer?: MailboxAnswerFn; peek?: MailboxPeekFn };
  args: Record<string, unknown>;
  rows: readonly MailboxRow[];
  grantId: string;
  /** The context of one mailbox of the call's connection. */
  contextFor(ref: MailboxRef): ToolContext;
  /** Runs the tool (the write pipeline around a write tool) in a context. */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<Result>;
}

export async function runForAccounts(c: AccountCall): Promise<Result> {
  if (!("account" in c.tool.config.inputSchema)) {
    // Tools about the connection, not a mailbox (list_providers, list_accounts, the review card's answer): its first mailbox.
    return c.run(c.args, c.contextFor(c.rows[0] ? refOf(c.rows[0], c.rows.length > 1) : { position: 0, account: null, several: false }));
  }
  const resolved = resolveAccount(c.rows, c.args.account as string | undefined, c.tool.across !== undefined);
  if (resolved.kind === "all") {
    // One context per mailbox for the call: a planned read peeks and then asks in the same one.
    const contexts = new Map<number, ToolContext>();
    const spanning = { ...c, contextFor: (ref: MailboxRef) => contexts.get(ref.position) ?? contexts.set(ref.position, c.contextFor(ref)).get(ref.position)! };
    const { peek } = c.tool;
    return c.tool.across!(c.args, resolved.refs.map((r) => r.ref), askOf(spanning), c.grantId, spanning.contextFor,
      peek && ((ref, args) => peek(args, spanning.contextFor(ref))));
  }
  const { ref, row } = resolved;
  if (c.tool.kind === "write" && row.access === "read") {
    return toolError(`${c.tool.name}: the mailbox ${row.address ?? "of this connection"} was connected read-only; reconnect it with read and write access to change it or send from it.`);
  }
  const result = await c.run(c.args, c.contextFor(ref));
  return ref.several && ref.account && "structuredContent" in result && result.structuredContent && !result.isError
    ? { ...result, structuredContent: { ...result.structuredContent, account: ref.account } }
    : result;
}

/** How a spanning read asks one mailbox: the tool's `answer` when it has one, else the whole tool. */
function askOf(c: AccountCall): Ask {
  const { answer } = c.tool;
  if (!answer) return (ref, args) => c.run(args, c.contextFor(ref)) as Promise<CallToolResult>;
  return async (ref, args, planned) => ({ content: [], structuredContent: (await answer(args, c.contextFor(ref), planned)) as Record<string, unknown> });
}
