// The setup form's send policy (docs/design.md §3 "Send policy", docs/owner.md §3): field `send`,
// one of src/send-policy.ts's values. Absent means the default (ask before writing to a new
// recipient); with read-only access it is ignored, and the grant sends nothing.
import { DEFAULT_SEND_POLICY, isSendPolicy, READ_ONLY_SEND_POLICY, type SendPolicy } from "../../send-policy.ts";
import type { Access } from "./access.ts";

export type SendChoice = { ok: true; policy: SendPolicy } | { ok: false; message: string };

export function chooseSendPolicy(field: string | undefined, access: Access): SendChoice {
  if (access === "read") return { ok: true, policy: READ_ONLY_SEND_POLICY };
  if (field === undefined || field === "") return { ok: true, policy: DEFAULT_SEND_POLICY };
  if (!isSendPolicy(field)) return { ok: false, message: "Choose when the app may send email: ask for new recipients, always ask, never send, or send without asking." };
  return { ok: true, policy: field };
}
