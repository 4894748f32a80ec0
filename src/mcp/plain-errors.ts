// What a client reads when its request was wrong, in plain words, mapped here once. Left alone, the
// SDK and libraries answer with their internals: zod's wording ("Too small: expected number to be
// >0 at uid", "MCP error -32602: Input validation error: …"), a JSON dump of zod issues as an
// "internal error" (-32603) when a request's params have the wrong shape, imapflow's codes
// ("(InvalidStringValue)") when a folder name carries a line break.
import { ProtocolError, ProtocolErrorCode, type JSONRPCMessage, type McpServer } from "@modelcontextprotocol/server";
import { MailError } from "../mail/errors.ts";

/** The fields of a zod (v4) issue this file reads. */
interface Issue {
  code?: string;
  path?: Array<string | number>;
  message?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  origin?: string;
  format?: string;
  values?: unknown[];
  keys?: string[];
  errors?: Issue[][];
}

const TYPE_WORDS: Record<string, string> = {
  string: "text", number: "a number", int: "a whole number", bigint: "a whole number", boolean: "true or false",
  array: "a list", object: "an object", record: "an object", date: "a date", null: "null",
};

function pathText(path: Array<string | number> = []): string {
  return path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");
}

function typeWords(expected = ""): string {
  return TYPE_WORDS[expected] ?? expected;
}

function bound(issue: Issue, direction: "least" | "most"): string {
  const n = String(direction === "least" ? issue.minimum : issue.maximum);
  const unit = issue.origin === "string" ? " characters" : issue.origin === "array" || issue.origin === "set" ? " items" : "";
  if (issue.inclusive === false) return `${direction === "least" ? "more" : "less"} than ${n}${unit}`;
  return `at ${direction} ${n}${unit}`;
}

/** One issue as "<argument> must …". */
function describeIssue(issue: Issue): string {
  const name = pathText(issue.path) || "the arguments";
  switch (issue.code) {
    case "invalid_type":
      return /received undefined/.test(issue.message ?? "") ? `${name} is required (${typeWords(issue.expected)})` : `${name} must be ${typeWords(issue.expected)}`;
    case "too_small":
      return `${name} must be ${bound(issue, "least")}`;
    case "too_big":
      return `${name} must be ${bound(issue, "most")}`;
    case "invalid_union": {
      const forms = [...new Set((issue.errors ?? []).map((alt) => typeWords(alt[0]?.expected)).filter(Boolean))];
      return forms.length ? `${name} must be ${forms.join(" or ")}` : `${name} has none of the accepted forms`;
    }
    case "invalid_value":
      return `${name} must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `${name} is not a valid ${issue.format ?? "value"}`;
    case "unrecognized_keys":
      return `unknown argument${(issue.keys ?? []).length > 1 ? "s" : ""} ${(issue.keys ?? []).join(", ")}`;
    case "custom":
      return `${name} ${issue.message ?? "is not valid"}`; // our own refinements are written as plain words
    default:
      return `${name} is not valid`;
  }
}

/** Zod issues as one sentence a person or a model can act on. */
export function describeIssues(issues: Issue[]): string {
  return issues.slice(0, 10).map(describeIssue).join("; ");
}

function asIssues(value: unknown): Issue[] | null {
  const ok = Array.isArray(value) && value.length > 0 && value.every((i) => i && typeof i === "object" && "code" in i && Array.isArray(i.path));
  return ok ? (value as Issue[]) : null;
}

interface SchemaLike {
  /** Standard Schema (SDK v2's tool schemas, src/mcp/tool-schema.ts): zod passes its own issues through. */
  "~standard"?: { validate: (v: unknown) => { issues?: unknown } | Promise<{ issues?: unknown }> };
}
type Validate = (tool: { inputSchema?: SchemaLike }, args: unknown, toolName: string) => Promise<unknown>;

/**
 * Tool arguments that fail the tool's zod schema: "Invalid arguments for get_email: uid must be a
 * number", as our own ToolInputError reads. The SDK's McpServer (v2 2.4.0, as 1.32 before it) checks them in the private
 * validateToolInput and throws zod's wording; the check stays the SDK's, only its message is ours.
 * Also drops the "MCP error -32602: " prefix the SDK puts on tool errors ("Tool x not found").
 */
export function plainToolErrors(server: McpServer): void {
  const s = server as unknown as { validateToolInput: Validate; createToolError: (message: string) => unknown };
  const validate = s.validateToolInput.bind(server);
  s.validateToolInput = async (tool, args, toolName) => {
    try {
      return await validate(tool, args, toolName);
    } catch (err) {
      if (!(err instanceof ProtocolError) || err.code !== ProtocolErrorCode.InvalidParams) throw err;
      const std = tool.inputSchema?.["~standard"];
      const parsed = std ? await Promise.resolve(std.validate(args ?? {})).catch(() => null) : null;
      const issues = asIssues(parsed?.issues);
      if (!issues) throw err;
      throw new Error(`Invalid arguments for ${toolName}: ${describeIssues(issues)}.`);
    }
  };
  const toolError = s.createToolError.bind(server);
  s.createToolError = (message) => toolError(message.replace(/^MCP error -?\d+: /, ""));
}

/**
 * JSON-RPC error responses whose message is a zod issue dump (a request whose params have the wrong
 * shape, answered by the SDK as -32603 "internal error") become -32602 Invalid params in words.
 */
export function plainRpcError(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || typeof message.error?.message !== "string") return message;
  // SDK 1.32 sent the bare issue dump; 2.4 prefixes it ("Invalid tools/call request: [...]").
  const start = message.error.message.indexOf("[");
  if (start < 0) return message;
  let issues: Issue[] | null = null;
  try {
    issues = asIssues(JSON.parse(message.error.message.slice(start)));
  } catch {
    return message;
  }
  if (!issues) return message;
  return { ...message, error: { code: ProtocolErrorCode.InvalidParams, message: `Invalid params: ${describeIssues(issues)}` } };
}

/** Every message the transport sends passes plainRpcError first. */
export function plainRpcErrors(transport: { send(message: JSONRPCMessage, options?: unknown): Promise<void> }): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(plainRpcError(message), options);
}

/** imapflow refuses values it cannot put in a command (CR, LF, NUL) with these codes, before sending. */
const UNSENDABLE = new Set(["InvalidStringValue", "InvalidTokenValue", "InvalidTextValue"]);

/** imapflow's own refusal of an argument as a MailError in words; any other error unchanged. */
export function plainImapError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNSENDABLE.has(code)) {
    return new MailError("invalid", "A folder name or search term contains a line break or another control character, which IMAP cannot carry. Remove it and try again.");
  }
  if (code === "InvalidSequenceSet") return new MailError("invalid", "The list of message uids is not valid: give positive whole numbers.");
  if (code === "InvalidSearchQuery") return new MailError("invalid", "The search criteria are not valid: check the dates and fields.");
  return err;
}
