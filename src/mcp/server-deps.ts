// The types shared across src/mcp/: what an MCP server is built from (McpServerDeps) and what the
// /mcp route puts in a request's authInfo (TokenExtra). A leaf: it imports types only and nothing
// from src/mcp/ that imports it back, so the server, the transports, the call context, completions,
// resources and the confirm codecs can all name these types without an import cycle through
// ./server.ts (test/architecture/import-graph.test.ts).
import type { Logger } from "../log.ts";
import type { MailConnections } from "../mail/connections.ts";
import type { ActivityLog } from "../store/activity.ts";
import type { GrantMailboxes } from "../store/grant-mailboxes.ts";
import type { Sending } from "./confirm/tool-sending.ts";
import type { ToolCallLimiter } from "./token-caps/call-limit.ts";
import type { SendBudget } from "./token-caps/send-budget.ts";
import type { AnyTool } from "./tools/registry.ts";

export interface McpServerDeps {
  /** The owner's log of write calls (src/store/activity.ts). */
  activity: ActivityLog;
  /** The mailboxes of each connection (src/store/grant-mailboxes.ts): which one a call's `account` names. */
  mailboxes: Pick<GrantMailboxes, "list">;
  /** Each token's credentials, IMAP connection and SMTP transport (src/mail/connections.ts). */
  mail: MailConnections;
  /** Per-token concurrent tool calls, shared by all sessions (src/mcp/token-caps/call-limit.ts). */
  calls: ToolCallLimiter;
  /** Per-token outgoing attachment bytes in flight (src/mcp/token-caps/send-budget.ts). */
  sendBudget: SendBudget;
  /** The send gate's service (store tables, caps, SMTP hand-off) and codecs (src/mcp/confirm/tool-sending.ts). */
  sending: Sending;
  log: Logger;
  version: string;
  /** {base_url}: the icons' origin and the server's website (./identity.ts). */
  baseUrl: string;
  /** The tools this server registers (./tools/index.ts mcpTools), built once per endpoint. */
  tools: readonly AnyTool[];
}

export type { TokenExtra } from "./token-extra.ts";
