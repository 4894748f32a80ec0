// The per-mailbox choices of the connect form — access, send policy, send-as identities and signature
// (docs/design.md §3) — checked in one place for the password form (./connect.ts) and for a provider
// sign-in's callback, whose fields came along sealed in the flow row (src/oauth/provider-sign-in/callback.ts).
import type { SendPolicy } from "../../send-policy.ts";
import type { IdentitySettings } from "../../store/mailbox-identities.ts";
import type { PendingRequest } from "../../store/pending.ts";
import { chooseAccess, type Access } from "./access.ts";
import type { ConnectFields } from "./connect-form.ts";
import { parseIdentityFields } from "./identity-fields.ts";
import { chooseSendPolicy } from "./send-choice.ts";

export interface MailboxChoices {
  access: Access;
  sendPolicy: SendPolicy;
  /** null: the identity fields were left empty (what was set before stays). */
  identities: IdentitySettings | null;
}

/** The choices, or the first problem in words (the form is shown again with it, 400). */
export function mailboxChoices(fields: ConnectFields, pending: PendingRequest): { ok: true; choices: MailboxChoices } | { ok: false; message: string } {
  const access = chooseAccess(fields.access, pending.scope);
  if (!access.ok) return access;
  const send = chooseSendPolicy(fields.send, access.access);
  if (!send.ok) return send;
  const identities = parseIdentityFields(fields.send_as, fields.signature);
  if (!identities.ok) return identities;
  return { ok: true, choices: { access: access.access, sendPolicy: send.policy, identities: identities.settings } };
}
