// An MCP client of alice's whose mailbox also sends as "Alice at Work" <alice-…@work.example>: the
// identity set through the store as the setup form sets it (no tool can), under a login of its own.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import type { AliceServer } from "./alice-server.ts";
import { connectClient } from "./mcp-client.ts";
import { issueTestGrant } from "./token.ts";

export const ALIAS_NAME = "Alice at Work";

export async function aliasClient(fx: AliceServer): Promise<{ c: Client; work: string }> {
  const tag = randomBytes(4).toString("hex");
  const login = `alice-alias-${tag}`;
  const work = `alice-${tag}@work.example`;
  const { token } = await issueTestGrant(fx.srv.deps, fx.account(), "email:read email:write", { login });
  await fx.srv.deps.store.identities.set(fx.srv.deps.store.identities.keyOf(login), { sendAs: [{ name: ALIAS_NAME, address: work }], signature: null });
  const c = await connectClient(fx.srv.mcpUrl, token);
  fx.open.push(c);
  return { c, work };
}
