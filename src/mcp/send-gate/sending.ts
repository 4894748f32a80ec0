// The send gate as the tools see it (ctx.sending, src/mcp/tools/context.ts): built per call by
// src/mcp/server.ts from what the composition root made once (the store's sending tables, the caps,
// the two codecs) and what this call carries (the token's grant, the client's capabilities, the
// round's verified requestState and inputResponses).
import type { CallToolResult, ClientCapabilities, ServerContext } from "@modelcontextprotocol/server";
import type { Clock } from "../../clock.ts";
import type { SendLimits } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { OutgoingDeps } from "../../mail/write/outgoing.ts";
import { derivedKey } from "../../store/crypto.ts";
import type { Store } from "../../store/store.ts";
import { SendCaps } from "../limits/send-caps.ts";
import { toolError } from "../tools/result.ts";
import { channelFor } from "./confirm/channel.ts";
import { confirmCodecs, type ConfirmCodecs, type ConfirmState, type ReviewClaim } from "./confirm/tokens.ts";
import type { GateDeps } from "./deps.ts";
import { runSendGate, type GateAnswer } from "./gate.ts";
import type { SendRequest } from "./request.ts";
import { confirmReview, type ReviewDecision } from "./review.ts";

/** Built once per service. */
export interface Sending {
  store: Pick<Store, "grants" | "sendLedger" | "sendRecipients" | "sendConfirmations" | "sendClaims">;
  caps: SendCaps;
  codecs: ConfirmCodecs;
  clock: Clock;
}

export function buildSending(store: Store, masterKey: Uint8Array, limits: SendLimits, clock: Clock): Sending {
  const codecs = confirmCodecs({ state: derivedKey(masterKey, "request state v1"), review: derivedKey(masterKey, "review card v1") });
  return { store, caps: new SendCaps(store.limits, limits), codecs, clock };
}

/** What a tool calls. */
export interface SendingApi {
  /** Runs the gate for one message (./gate.ts). */
  send(request: SendRequest): Promise<GateAnswer>;
  /** The review card's answer: its token and the person's choice (./review.ts). */
  confirmReview(token: string, decision: ReviewDecision): Promise<CallToolResult>;
}

export interface CallInfo {
  grantId: string;
  server: ServerContext;
  capabilities: ClientCapabilities | undefined;
  outgoing: () => Promise<OutgoingDeps>;
  log: Logger;
  signal: AbortSignal;
}

export function sendingApi(s: Sending, call: CallInfo): SendingApi {
  const gate = async (): Promise<GateDeps> => ({
    grantId: call.grantId,
    policy: () => s.store.grants.sendPolicy(call.grantId),
    store: s.store,
    caps: s.caps,
    mail: await call.outgoing(),
    call: {
      channel: channelFor(call.capabilities),
      // Verified by the server's requestState hook (the state codec) before the tool runs.
      state: call.server.mcpReq.requestState<ConfirmState>(),
      responses: call.server.mcpReq.inputResponses,
      mintState: (state) => s.codecs.state.mint(state, call.server),
      mintReview: (claim) => s.codecs.review.mint(claim, call.server),
    },
    clock: s.clock,
    log: call.log,
    signal: call.signal,
  });
  return {
    send: async (request) => runSendGate(await gate(), request),
    async confirmReview(token, decision) {
      let claim: ReviewClaim;
      try {
        claim = await s.codecs.review.verify(token, call.server);
      } catch {
        return toolError("This review card's token is not valid here (altered, expired, or issued to another connection). Nothing was sent.");
      }
      return confirmReview(await gate(), claim, decision);
    },
  };
}
