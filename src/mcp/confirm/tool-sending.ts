// The send gate (src/sending/gate.ts) as the MCP tools see it (ctx.sending, src/mcp/tools/context.ts):
// built per call by src/mcp/call-context.ts from what the composition root made once (the sending
// service with its SMTP hand-off, the two codecs) and what this call carries (the token's grant,
// the client's capabilities, the round's verified requestState and inputResponses). The gate's
// protocol-free answer becomes an MCP result here: a tool result, an isError refusal, or an
// input_required round carrying the question and its signed state.
import type { CallToolResult, ClientCapabilities, InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import { inputRequired } from "@modelcontextprotocol/server";
import type { Clock } from "../../clock.ts";
import type { SendLimits } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { SmtpPool } from "../../mail/smtp/pool.ts";
import type { OutgoingDeps } from "../../mail/write/outgoing.ts";
import { derivedKey } from "../../store/crypto.ts";
import type { Store } from "../../store/store.ts";
import type { ConfirmState, ReviewClaim } from "../../sending/confirmation.ts";
import { answerReview, runSendGate } from "../../sending/gate.ts";
import type { GateAnswer, SendRequest } from "../../sending/request.ts";
import { buildSendingService, gateDeps, type SendingService } from "../../sending/sending.ts";
import { toolError } from "../tools/result.ts";
import { channelFor } from "./channel.ts";
import { CONFIRM_KEY, confirmRequest, decisionOf } from "./elicitation.ts";
import { confirmCodecs, type ConfirmCodecs } from "./tokens.ts";

/** The result `_meta` key of a review card's token: for the app (the host passes _meta to it), not the model. */
export const REVIEW_META_KEY = "mailbox-mcp/review";

/** Built once per service. */
export interface Sending {
  service: SendingService;
  codecs: ConfirmCodecs;
}

export function buildSending(store: Store, masterKey: Uint8Array, limits: SendLimits, clock: Clock, smtp: Pick<SmtpPool, "send">): Sending {
  const codecs = confirmCodecs({ state: derivedKey(masterKey, "request state v1"), review: derivedKey(masterKey, "review card v1") });
  return { service: buildSendingService(store, limits, clock, smtp), codecs };
}

export type ToolAnswer = CallToolResult | InputRequiredResult;

/** What a tool calls. */
export interface SendingApi {
  /** Runs the gate for one message (src/sending/gate.ts). */
  send(request: SendRequest): Promise<ToolAnswer>;
  /** The review card's answer: its token and the person's choice, through the same gate. */
  confirmReview(token: string, decision: "send" | "keep_as_draft"): Promise<CallToolResult>;
}

export interface CallInfo {
  tokenId: string;
  grantId: string;
  /** The mailbox (position in the connection) the message goes out from. */
  mailbox: number;
  server: ServerContext;
  capabilities: ClientCapabilities | undefined;
  outgoing: () => Promise<OutgoingDeps>;
  /** The same for another mailbox of the connection: a review card answered from wherever its message is held. */
  outgoingAt: (mailbox: number) => Promise<OutgoingDeps>;
  /** The call's activity row goes under this mailbox of the connection (a review card's answer: the one its message is held in). */
  fileUnder: (mailbox: number) => void;
  log: Logger;
  signal: AbortSignal;
}

export function sendingApi(s: Sending, call: CallInfo): SendingApi {
  // Verified by the server's requestState hook (the state codec) before the tool runs.
  const state = call.server.mcpReq.requestState<ConfirmState>();
  // `mailbox`: the review card's answer works in the mailbox its message is held in (the claim's `m`).
  const deps = (mailbox = call.mailbox) => gateDeps(s.service, {
    tokenId: call.tokenId, grantId: call.grantId, mailbox, log: call.log, signal: call.signal,
    outgoing: mailbox === call.mailbox ? call.outgoing : () => call.outgoingAt(mailbox),
    confirm: {
      channel: channelFor(call.capabilities),
      answered: state ? { state, answer: decisionOf(call.server.mcpReq.inputResponses) } : undefined,
      mintReview: (claim) => s.codecs.review.mint({ ...claim, m: mailbox }, call.server),
    },
  });
  return {
    send: async (request) => toMcp(s, call.server, await runSendGate(await deps(), request)),
    async confirmReview(token, decision) {
      let claim: ReviewClaim;
      try {
        claim = await s.codecs.review.verify(token, call.server);
      } catch {
        return toolError("This review card's token is not valid here (altered, expired, or issued to another connection). Nothing was sent.");
      }
      call.fileUnder(claim.m ?? 0);
      return (await toMcp(s, call.server, await answerReview(await deps(claim.m ?? 0), claim, decision))) as CallToolResult;
    },
  };
}

async function toMcp(s: Sending, server: ServerContext, a: GateAnswer): Promise<ToolAnswer> {
  if (a.kind === "refused") return toolError(a.text);
  if (a.kind === "ask") {
    return inputRequired({ inputRequests: { [CONFIRM_KEY]: confirmRequest(a.mail, a.fresh) }, requestState: await s.codecs.state.mint(a.state, server) });
  }
  const meta = a.review ? { _meta: { [REVIEW_META_KEY]: a.review } } : {};
  return { content: [{ type: "text", text: a.text }], structuredContent: { ...a.result }, ...meta };
}
