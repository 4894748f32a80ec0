// How this client can let the person confirm a send (docs/design.md §3 "Send policy"), from the
// capabilities it declared (a 2025-era session's initialize, or a 2026-07-28 request's envelope):
//   - "elicitation": form-mode elicitation (MCP "Elicitation"): the question is asked inside the
//     client, by elicitation/create on a 2025-era session or an input_required result on 2026-07-28;
//   - "app": the MCP Apps extension (io.modelcontextprotocol/ui): the host renders our review card
//     (./review-card.ts) with the tool's result, and the person's click calls an app-only tool;
//   - "none": the message is saved as a draft, and the tool says so in words.
// Elicitation is preferred: it answers within the call, and the model learns the outcome at once.
import type { ClientCapabilities } from "@modelcontextprotocol/server";
import type { ConfirmChannel } from "../../sending/confirmation.ts";

/** The MCP Apps extension's identifier in `capabilities.extensions`. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Form mode is declared by `elicitation: {}` (the 2025-06-18 shape, form implied) or
 * `elicitation: { form: {} }` (2025-11-25 on); a client declaring only `url` cannot show a form.
 */
export function declaresFormElicitation(caps: ClientCapabilities | undefined): boolean {
  const e = (caps as { elicitation?: unknown } | undefined)?.elicitation;
  if (!isObject(e)) return false;
  return Object.keys(e).length === 0 || isObject(e.form) || (!("url" in e) && !("form" in e));
}

/** The host renders MCP Apps: it declared the UI extension with the app MIME type (or without a list). */
export function declaresUi(caps: ClientCapabilities | undefined): boolean {
  const ext = (caps as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[UI_EXTENSION];
  if (!isObject(ext)) return false;
  const types = ext.mimeTypes;
  return !Array.isArray(types) || types.includes(APP_MIME_TYPE);
}

export function channelFor(caps: ClientCapabilities | undefined): ConfirmChannel {
  if (declaresFormElicitation(caps)) return "elicitation";
  if (declaresUi(caps)) return "app";
  return "none";
}
