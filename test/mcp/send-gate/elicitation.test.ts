// Confirmation inside the client by elicitation (docs/design.md §3 "Send policy"), with the official
// SDK clients against a real server, the harness Dovecot and SMTP receiver:
//   - v1 (@modelcontextprotocol/sdk, 2025-11-25 session) declaring elicitation: the server sends
//     elicitation/create inside the tools/call; accept sends, decline or "keep" keeps a draft;
//   - v2 (@modelcontextprotocol/client) pinned to 2026-07-28: the call answers input_required with
//     the question and a signed requestState, the client asks, then retries with the answer.
// The SMTP receiver gets exactly the messages accepted; a known recipient is not asked at all; a
// recipient the grant has delivered to before is known from then on.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, type CallToolResult } from "@modelcontextprotocol/client";
import { randomBytes } from "node:crypto";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { findBySubject } from "../../support/imap.ts";
import { call, textOf } from "../../support/mcp-client.ts";
import { MODERN } from "../../support/mcp-client-v2.ts";
import { issueTestGrant } from "../../support/token.ts";
import { aliceServer } from "../../support/alice-server.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");

type Answer = ElicitResult | ((req: ElicitRequest["params"]) => ElicitResult);

/** A person at the client: every question asked is kept; the answer is given by `answer`. */
function person(answer: Answer) {
  const asked: Array<ElicitRequest["params"]> = [];
  const handler = async (req: { params: ElicitRequest["params"] }) => {
    asked.push(req.params);
    return typeof answer === "function" ? answer(req.params) : answer;
  };
  return { asked, handler };
}

async function token(policy: SendPolicy = "new_recipients"): Promise<string> {
  const account = fx.account();
  return (await issueTestGrant(fx.srv.deps, account, "email:read email:write", undefined, policy)).token;
}

async function v1(answer: Answer, policy?: SendPolicy) {
  const p = person(answer);
  const client = new Client({ name: "elicit-v1", version: "0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, p.handler as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${await token(policy)}` } } }));
  fx.open.push(client);
  return { client, asked: p.asked, send: (args: Record<string, unknown>) => call(client, "send_email", args) };
}

async function v2(answer: Answer, policy?: SendPolicy) {
  const p = person(answer);
  const client = new ClientV2({ name: "elicit-v2", version: "0" }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", p.handler as never);
  await client.connect(new TransportV2(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${await token(policy)}` } } }));
  fx.open.push(client);
  return { client, asked: p.asked, send: async (args: Record<string, unknown>) => (await client.callTool({ name: "send_email", arguments: args })) as CallToolResult };
}

const delivered = (subject: string) => fx.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject));
const SEND: ElicitResult = { action: "accept", content: { decision: "send" } };

for (const [era, connect] of [["v1 client, 2025-11-25 session (elicitation/create)", v1], [`v2 client, ${MODERN} (input_required)`, v2]] as const) {
  describe(era, () => {
    test("accepted: asked once, with the recipients (the new one marked), subject, first lines and attachments; then sent", async () => {
      const c = await connect(SEND);
      const stranger = `stranger-${tag()}@example.net`;
      const subject = `accepted ${tag()}`;
      const res = await c.send({
        to: [`Stranger <${stranger}>`, fx.h.dovecot.users.alice.email], subject, text: "First line.\nSecond line.",
        attachments: [{ filename: "plan.txt", content_base64: Buffer.from("the plan").toString("base64") }],
      });
      expect(res.structuredContent).toMatchObject({ status: "sent", decision: "confirmed", accepted: [stranger, fx.h.dovecot.users.alice.email], saved_to: "Sent" });
      expect(textOf(res)).toContain("Sent after the person confirmed it");
      expect(c.asked).toHaveLength(1);
      const q = c.asked[0]!;
      expect(q.mode ?? "form").toBe("form");
      expect(q.message).toContain(`To: Stranger <${stranger}> (NEW: never written to before), ${fx.h.dovecot.users.alice.email}\n`);
      expect(q.message).toContain(`Subject: ${subject}`);
      expect(q.message).toContain("Attachments: plan.txt (1 KB)");
      expect(q.message).toContain("First line.\nSecond line.");
      expect((q as unknown as { requestedSchema: { required: string[]; properties: { decision: { enum: string[] } } } }).requestedSchema)
        .toMatchObject({ required: ["decision"], properties: { decision: { enum: ["send", "keep_as_draft"] } } });
      expect(delivered(subject)).toHaveLength(1);
      // Delivered once, the stranger is known to this grant: not asked again.
      const again = await c.send({ to: stranger, subject: `${subject} 2`, text: "x" });
      expect(again.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
      expect(c.asked).toHaveLength(1);
    });

    for (const [how, answer] of [["declined", { action: "decline" }], ["kept as draft", { action: "accept", content: { decision: "keep_as_draft" } }], ["cancelled", { action: "cancel" }]] as const) {
      test(`${how}: nothing sent, the message kept in Drafts`, async () => {
        const c = await connect(answer as ElicitResult);
        const subject = `${how} ${tag()}`;
        const res = await c.send({ to: `stranger-${tag()}@example.net`, subject, text: "x" });
        const r = res.structuredContent as { status: string; decision: string; draft: { folder: string; uid: number }; reason: string };
        expect(r).toMatchObject({ status: "held_as_draft", decision: "declined", accepted: [] });
        expect(r.reason).toContain("the person chose to keep it as a draft");
        expect(c.asked).toHaveLength(1);
        expect(delivered(subject)).toHaveLength(0);
        expect((await findBySubject(fx.imap, "Drafts", subject)).map((m) => m.uid)).toEqual([r.draft.uid]);
      });
    }

    test("a known recipient under 'ask for new recipients' is not asked", async () => {
      const c = await connect(() => { throw new Error("must not be asked"); });
      const subject = `not asked ${tag()}`;
      const res = await c.send({ to: fx.h.dovecot.users.alice.email, subject, text: "x" });
      expect(res.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
      expect(c.asked).toHaveLength(0);
    });

    test("'always': asked even for a known recipient", async () => {
      const c = await connect(SEND, "always");
      const subject = `always asked ${tag()}`;
      const res = await c.send({ to: fx.h.dovecot.users.alice.email, subject, text: "x" });
      expect(res.structuredContent).toMatchObject({ status: "sent", decision: "confirmed" });
      expect(c.asked).toHaveLength(1);
      expect(delivered(subject)).toHaveLength(1);
    });
  });
}
