// The setup form's access choice (docs/design.md §3, docs/owner.md §3): read and write (the spec's scope,
// the default) or read only; and, for read and write, when the app may send (the send policy,
// field `send`, src/oauth/setup/send-choice.ts). Plain radio buttons, so it works without
// JavaScript; when the client asked for email:read alone, read only is the one choice offered and
// there is nothing to send.
import type { Access } from "../oauth/setup/access.ts";
import { DEFAULT_SEND_POLICY, isSendPolicy, type SendPolicy } from "../send-policy.ts";

export const READ_ONLY_TEXT = "the app can read and search but cannot send, draft, mark or move";

/** What each send policy means to the person choosing, in the form's order. */
const SEND_CHOICES: Array<{ value: SendPolicy; title: string; text: string }> = [
  { value: "new_recipients", title: "Ask me before writing to someone new", text: "mail to people this mailbox has written to before goes out at once; a first message to anyone else waits for your OK in the app" },
  { value: "always", title: "Ask me before every email", text: "nothing goes out until you confirm it in the app" },
  { value: "never", title: "Never send", text: "the app can only save drafts, which you send yourself from your mail app" },
  { value: "direct", title: "Send without asking", text: "the app sends whatever it decides to, at once" },
];

function SendChoice({ chosen }: { chosen?: string }): string {
  const current = isSendPolicy(chosen) ? chosen : DEFAULT_SEND_POLICY;
  return (
    <fieldset id="send">
      <legend>Sending email</legend>
      {SEND_CHOICES.map((c) => (
        <label class="choice">
          <input type="radio" name="send" value={c.value} checked={c.value === current} />
          <span><strong>{c.title}</strong>: {c.text}</span>
        </label>
      ))}
      <p class="hint">Where the app cannot ask you, the message is saved in Drafts instead. Ignored with read-only access.</p>
    </fieldset>
  ) as string;
}

export function AccessChoice({ widest, chosen, send }: { widest: Access; chosen?: string; send?: string }): string {
  const readOnly = widest === "read" || chosen === "read";
  return (
    <>
      <fieldset id="access">
        <legend>Access</legend>
        {widest === "read_write" ? (
          <label class="choice">
            <input type="radio" name="access" value="read_write" checked={!readOnly} />
            <span><strong>Read and write</strong>: the app can read, search, draft, send, mark and move email</span>
          </label>
        ) : ""}
        <label class="choice">
          <input type="radio" name="access" value="read" checked={readOnly} />
          <span><strong>Read only</strong>: {READ_ONLY_TEXT}</span>
        </label>
        {widest === "read" ? <p class="hint">The app asked for read-only access.</p> : ""}
      </fieldset>
      {widest === "read_write" ? <SendChoice chosen={send} /> : ""}
    </>
  ) as string;
}
