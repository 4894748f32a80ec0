// The prompts this server offers (MCP prompts/list and prompts/get): one file per prompt, listed here.
// Registered on every McpServer with the prompt icon; a `folder` argument completes from the person's
// folders (../completions.ts). Their text carries no mailbox content (./define.ts).
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { iconsFor } from "../icons/icons.ts";
import { TOOLS } from "../tools/index.ts";
import { accountArgument, inAccount, type PromptDef } from "./define.ts";
import { draftReply } from "./draft-reply.ts";
import { findMessage } from "./find-message.ts";
import { summarizeThread } from "./summarize-thread.ts";
import { triageInbox } from "./triage-inbox.ts";

export const PROMPTS: readonly PromptDef[] = [triageInbox, draftReply, summarizeThread, findMessage];

const toolNames = new Set(TOOLS.map((t) => t.name));
const has = (tool: string) => toolNames.has(tool);

export function registerPrompts(server: McpServer, baseUrl: string): void {
  const icons = iconsFor(baseUrl, "mailbox");
  for (const prompt of PROMPTS) {
    // Every prompt may name one of the connection's mailboxes (`account`).
    const argsSchema = z.object({ ...prompt.args, account: accountArgument });
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema, icons },
      (args: Record<string, string | undefined>) => ({
        description: prompt.description,
        messages: [{ role: "user", content: { type: "text", text: inAccount(prompt.text(args, has), args.account) } }],
      }));
  }
}
