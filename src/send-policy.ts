// The send policy of a grant (docs/design.md §3 "Send policy"): whether mail goes out when the app
// asks, only after the person confirmed it, or never. Written once here, at the bottom of the
// layers beside scopes.ts, because the store keeps it on grants, the setup form offers it, the
// owner's `grants` shows it and the send gate (src/sending/) applies it.

/** The setup form's `send` values, in the order the form offers them. */
export const SEND_POLICIES = ["new_recipients", "always", "never", "direct"] as const;

export type SendPolicy = (typeof SEND_POLICIES)[number];

/** What a new grant gets unless the person picks otherwise: ask before writing to a stranger. */
export const DEFAULT_SEND_POLICY: SendPolicy = "new_recipients";

/**
 * Grants made before send policies existed keep what they could do then: send without asking
 * (the migration's column default), until the mailbox is connected again.
 */
export const LEGACY_SEND_POLICY: SendPolicy = "direct";

/** A read-only grant sends nothing, whatever the form said. */
export const READ_ONLY_SEND_POLICY: SendPolicy = "never";

export function isSendPolicy(value: unknown): value is SendPolicy {
  return typeof value === "string" && (SEND_POLICIES as readonly string[]).includes(value);
}

/** Short words for each policy: the setup form's labels, `mailbox-mcp grants`, tool texts. */
export const SEND_POLICY_LABELS: Record<SendPolicy, string> = {
  new_recipients: "ask before writing to a new recipient",
  always: "ask before every send",
  never: "never send (drafts only)",
  direct: "send without asking",
};
