// The setup form's identity fields (docs/design.md §3 "Per-mailbox fields"): the addresses this
// mailbox also sends as (`send_as`, one a line) and its signature (`signature`, Markdown allowed),
// checked by src/oauth/setup/identity-fields.ts. Optional and folded away: most people leave them.
// Left blank, a connect keeps what the mailbox already has. The owner's page can reuse this block.
import { Html } from "@kitajs/html";

/** Both values are re-shown after a failed connect (neither is secret). */
export function IdentityFields({ sendAs, signature }: { sendAs?: string; signature?: string }): string {
  const open = !!(sendAs?.trim() || signature?.trim());
  return (
    <details id="identities" open={open}>
      <summary>Send as other addresses, signature (optional)</summary>
      <label for="send_as">Also send as</label>
      <textarea id="send_as" name="send_as" rows="3" autocapitalize="off" spellcheck="false"
        placeholder="Alice Example <alice@example.org>">{Html.escapeHtml(sendAs ?? "")}</textarea>
      <p class="hint">One address a line, as <code>Name &lt;address&gt;</code> or <code>address</code>: aliases your provider
        lets you send from (set them up there first). Replies go out from the address a message came to.</p>
      <label for="signature">Signature</label>
      <textarea id="signature" name="signature" rows="3">{Html.escapeHtml(signature ?? "")}</textarea>
      <p class="hint">The signature of your login address, added below new messages, replies and forwards sent from it (Markdown
        allowed). Each other address has its own, set on your account page (<code>/account</code>). Left blank, what you set before is kept.</p>
    </details>
  ) as string;
}
