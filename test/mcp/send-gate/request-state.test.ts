// The 2026-07-28 confirmation round over raw HTTP (docs/design.md §3 "Send policy"): the first
// tools/call answers input_required with the question and a signed requestState; the retry carries
// the answer. What an attacker (or a confused client) might send instead is refused and sends
// nothing: a tampered requestState, one replayed after its answer was used, one minted for another
// message, one minted for another access token. A retry of an answer already acted on gets the
// first outcome, never a second copy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { getHarness, type Harness } from "../../support/harness.ts";
import { startTestServer, type TestServer } from "../../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";
import { postTool, rpcOf, textOfRpc, type Rpc } from "../../support/modern-call.ts";

let h: Harness;
let srv: TestServer;
const tag = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
}, 30_000);
afterAll(() => srv.stop());

async function newToken(): Promise<string> {
  const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);
  return (await issueTestGrant(srv.deps, account, "email:read email:write", undefined, "new_recipients")).token;
}

/** One 2026-07-28 tools/call of send_email from a client that declares form elicitation. */
const sendEmail = async (token: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Rpc> =>
  rpcOf(await postTool({ url: srv.mcpUrl, token, tool: "send_email", args, extra, capabilities: { elicitation: { form: {} } } }));

const ACCEPT = { inputResponses: { confirm_send: { action: "accept", content: { decision: "send" } } } };
const message = () => ({ to: `stranger-${tag()}@example.net`, subject: `state ${tag()}`, text: "x" });
const delivered = (subject: string) => h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).length;

/** The first round: its requestState. */
async function asked(token: string, args: Record<string, unknown>): Promise<string> {
  const first = await sendEmail(token, args);
  expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { confirm_send: { method: "elicitation/create" } } });
  expect(typeof first.result!.requestState).toBe("string");
  return first.result!.requestState as string;
}

const textOf = textOfRpc;

describe("the requestState of a confirmation round", () => {
  test("the answer sends once; the same answer again gets the first outcome, not a second copy", async () => {
    const token = await newToken();
    const args = message();
    const state = await asked(token, args);
    const sent = await sendEmail(token, args, { ...ACCEPT, requestState: state });
    expect(sent.result?.structuredContent).toMatchObject({ status: "sent", decision: "confirmed" });
    const again = await sendEmail(token, args, { ...ACCEPT, requestState: state });
    expect(again.result?.structuredContent).toMatchObject({ status: "sent", decision: "repeat" });
    expect(textOf(again)).toContain("it was not sent again");
    expect(delivered(args.subject)).toBe(1);
  });

  test("tampered: refused by the SDK's check (-32602), nothing sent", async () => {
    const token = await newToken();
    const args = message();
    const state = await asked(token, args);
    const flipped = state.slice(0, 10) + (state[10] === "A" ? "B" : "A") + state.slice(11);
    const res = await sendEmail(token, args, { ...ACCEPT, requestState: flipped });
    expect(res.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    // A state of our own making, with a payload that says "send" but no valid signature.
    const forged = `v1.${Buffer.from(JSON.stringify({ p: { n: "0".repeat(32), d: "x" }, exp: 9_999_999_999 })).toString("base64url")}.AAAA`;
    expect((await sendEmail(token, args, { ...ACCEPT, requestState: forged })).error?.code).toBe(-32602);
    expect(delivered(args.subject)).toBe(0);
  });

  test("another access token's answer: refused (-32602), nothing sent", async () => {
    const mine = await newToken();
    const theirs = await newToken();
    const args = message();
    const state = await asked(mine, args);
    const res = await sendEmail(theirs, args, { ...ACCEPT, requestState: state });
    expect(res.error).toMatchObject({ code: -32602 });
    expect(delivered(args.subject)).toBe(0);
  });

  test("an answer for another message: refused, nothing sent", async () => {
    const token = await newToken();
    const asked1 = message();
    const state = await asked(token, asked1);
    const other = message();
    const res = await sendEmail(token, other, { ...ACCEPT, requestState: state });
    expect(res.result?.isError).toBe(true);
    expect(textOf(res)).toContain("this confirmation was given for another message");
    expect(delivered(asked1.subject) + delivered(other.subject)).toBe(0);
  });

  test("replayed after its first use sent nothing (the SMTP server refused): refused, single use", async () => {
    const token = await newToken();
    const args = message();
    const state = await asked(token, args);
    h.smtp.failNext = { code: 451, message: "4.3.0 try later" };
    const failed = await sendEmail(token, args, { ...ACCEPT, requestState: state });
    expect(failed.result?.isError).toBe(true);
    const replay = await sendEmail(token, args, { ...ACCEPT, requestState: state });
    expect(replay.result?.isError).toBe(true);
    expect(textOf(replay)).toContain("this confirmation was already used, or it expired");
    expect(delivered(args.subject)).toBe(0);
    // Asked anew, it goes.
    const fresh = await asked(token, args);
    expect((await sendEmail(token, args, { ...ACCEPT, requestState: fresh })).result?.structuredContent).toMatchObject({ status: "sent" });
    expect(delivered(args.subject)).toBe(1);
  });

  test("a retry that carries the state but no answer: refused, nothing sent", async () => {
    const token = await newToken();
    const args = message();
    const state = await asked(token, args);
    const res = await sendEmail(token, args, { requestState: state });
    expect(textOf(res)).toContain("carries no answer");
    expect(delivered(args.subject)).toBe(0);
  });
});
