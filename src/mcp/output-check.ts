// Where the SDK's check of a tool's structuredContent against its outputSchema stays (docs/decisions.md
// "Output validation"). The check protects clients from a result that breaks the tool's published
// schema: it turns one into an error instead. It stays for every tool whose result carries values the
// mail server chose that our code passes on as they came (list_mailboxes: imapflow's STATUS counts and
// flags; get_attachment; every write tool; any new tool until it is listed here). It is skipped for
// the tools below, whose results are built field by field by our own normalizers, each field of the
// schema's type whatever the server sent, and are checked against the same schema by the tests; on
// the read mix it cost ~4% of the server's CPU (docs/performance.md), re-building every summary in zod.
import type { McpServer } from "@modelcontextprotocol/server";

export const OUTPUT_BUILT_BY_US: ReadonlySet<string> = new Set([
  "list_providers", // the presets: constants
  "get_recent_emails", // summaries: src/mail/read/summary.ts toSummary
  "search_emails", // the same summaries, a count
  "get_email", // a summary, then headers (mime/headers.ts), body text (window), attachments (attachment-list.ts)
]);

type ValidateOutput = (tool: unknown, result: unknown, toolName: string) => Promise<void>;

/** The SDK's (private) output check, skipped for OUTPUT_BUILT_BY_US. */
export function skipOutputCheckOfOwnResults(server: McpServer): void {
  const s = server as unknown as { validateToolOutput: ValidateOutput };
  const check = s.validateToolOutput.bind(server);
  s.validateToolOutput = (tool, result, toolName) => (OUTPUT_BUILT_BY_US.has(toolName) ? Promise.resolve() : check(tool, result, toolName));
}
