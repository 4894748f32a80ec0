// The question put to the person by elicitation (docs/design.md §3 "Send policy"): a form-mode
// request whose message shows what would go out (recipients with the new ones marked, subject, the
// first lines, attachment names and sizes) and whose form asks one required field, `decision`:
// "send" or "keep_as_draft". Declining or cancelling the form keeps the draft, as does any answer
// that is not exactly "send". The same request is embedded in a 2026-07-28 input_required result
// and, on a 2025-era session, sent by the SDK as elicitation/create.
import { inputRequired, inputResponse, type InputRequest } from "@modelcontextprotocol/server";
import { cleanLine, cleanText } from "../../mail/content/sanitize.ts";
import type { PersonAnswer } from "../../sending/confirmation.ts";
import type { OutgoingMail } from "../../sending/request.ts";

/** The key of our one input request in inputRequests / inputResponses. */
export const CONFIRM_KEY = "confirm_send";

const PREVIEW_LINES = 8;

const size = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.ceil(n / 1024))} KB`);

/** What the person reads: plain text, every value cleaned of invisible characters (they may come from a sender). */
export function confirmMessage(mail: OutgoingMail, fresh: readonly string[]): string {
  const isNew = new Set(fresh.map((a) => a.toLowerCase()));
  const who = (l: Array<{ name: string | null; address: string }>) =>
    l.map((m) => `${m.name ? `${cleanLine(m.name)} <${m.address}>` : m.address}${isNew.has(m.address.toLowerCase()) ? " (NEW: never written to before)" : ""}`).join(", ");
  const r = mail.recipients;
  const body = cleanText(mail.preview).split("\n").filter((l) => l.trim()).slice(0, PREVIEW_LINES);
  return [
    "An app wants to send this email from your mailbox. Send it?",
    "",
    `To: ${who(r.to)}`,
    ...(r.cc.length ? [`Cc: ${who(r.cc)}`] : []),
    ...(r.bcc.length ? [`Bcc: ${who(r.bcc)}`] : []),
    `Subject: ${cleanLine(mail.subject) || "(no subject)"}`,
    ...(mail.attachments.length ? [`Attachments: ${mail.attachments.map((a) => `${cleanLine(a.filename)} (${size(a.size)})`).join(", ")}`] : []),
    "",
    ...(body.length ? body : ["(no text)"]),
    ...(cleanText(mail.preview).split("\n").filter((l) => l.trim()).length > PREVIEW_LINES ? ["…"] : []),
  ].join("\n");
}

/** The embedded elicitation request. */
export function confirmRequest(mail: OutgoingMail, fresh: readonly string[]): InputRequest {
  return inputRequired.elicit({
    mode: "form",
    message: confirmMessage(mail, fresh),
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Send this email?",
          enum: ["send", "keep_as_draft"],
          enumNames: ["Send it now", "Keep it as a draft"],
        },
      },
      required: ["decision"],
    },
  });
}

/** The person's answer in a retried request: send, keep (anything else), or none carried. */
export function decisionOf(responses: Record<string, unknown> | undefined): PersonAnswer {
  const view = inputResponse(responses, CONFIRM_KEY);
  if (view.kind !== "elicit") return "missing";
  return view.action === "accept" && view.content?.decision === "send" ? "send" : "keep";
}
