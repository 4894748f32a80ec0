// The owner's page's answers (docs/owner.md §7): HTML with the pages' nonce CSP (form-action to this
// server only: every form posts here and every answer is a 303 to /account), never cached.
import type { AccountData } from "../../oauth/account/page-data.ts";
import type { SetupFormValues } from "../../views/setup-form.tsx";
import { AccountConfirm } from "../../views/account-confirm.tsx";
import { AccountPage } from "../../views/account-page.tsx";
import { AccountSignInPage } from "../../views/account-sign-in.tsx";
import { ErrorPage } from "../../views/error-page.tsx";
import { contentSecurityPolicy, newNonce } from "../../views/page.ts";
import { html } from "../responses.ts";

type Headers = Record<string, string>;

const page = (render: (nonce: string) => string, status: number, origin: string, headers: Headers = {}): Response => {
  const nonce = newNonce();
  return html(render(nonce), status, contentSecurityPolicy(nonce, origin), headers);
};

export function signInPage(origin: string, formToken: string, values: SetupFormValues, status = 200, error?: string, headers: Headers = {}): Response {
  const { password: _never, ...kept } = values as SetupFormValues & { password?: string };
  return page((nonce) => AccountSignInPage({ nonce, formToken, values: kept, error }), status, origin, headers);
}

export function accountPage(origin: string, csrf: string, data: AccountData): Response {
  return page((nonce) => AccountPage({ nonce, csrf, data }), 200, origin);
}

export function confirmPage(origin: string, action: string, question: string, fields: Record<string, string>): Response {
  return page((nonce) => AccountConfirm({ nonce, action, question, fields }), 200, origin);
}

export function accountError(origin: string, status: number, title: string, message: string): Response {
  return page((nonce) => ErrorPage({ nonce, title, message }), status, origin);
}
