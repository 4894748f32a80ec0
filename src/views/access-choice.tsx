// The setup form's access choice (docs/design.md §3, docs/owner.md §3): read and write (the spec's scope,
// the default) or read only. Plain radio buttons, so it works without JavaScript; when the client
// asked for email:read alone, read only is the one choice offered.
import type { Access } from "../oauth/setup/access.ts";

export const READ_ONLY_TEXT = "the app can read and search but cannot send, draft, mark or move";

export function AccessChoice({ widest, chosen }: { widest: Access; chosen?: string }): string {
  const readOnly = widest === "read" || chosen === "read";
  return (
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
  ) as string;
}
