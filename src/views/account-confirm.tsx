// "Are you sure?" for an owner's page action (docs/owner.md §7): the same POST again with confirm=1,
// or back to the page. No script: the question is its own page.
import { Html } from "@kitajs/html";
import { Layout } from "./layout.tsx";

export interface ConfirmProps {
  nonce: string;
  action: string;
  question: string;
  /** The fields posted again (csrf_token, grant, send). */
  fields: Record<string, string>;
}

export function AccountConfirm({ nonce, action, question, fields }: ConfirmProps): string {
  return (
    <Layout title="Please confirm" nonce={nonce}>
      <div class="card">
        <h1 safe>{question}</h1>
        <form method="post" action={Html.escapeHtml(action)}>
          {Object.entries(fields).map(([k, v]) => <input type="hidden" name={Html.escapeHtml(k)} value={Html.escapeHtml(v)} />)}
          <input type="hidden" name="confirm" value="1" />
          <button type="submit" class="danger">Yes, do it</button>
        </form>
        <p><a href="/account">No, back to the page</a></p>
      </div>
    </Layout>
  ) as string;
}
