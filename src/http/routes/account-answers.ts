// The owner's page's answers (docs/owner.md §7): HTML with the pages' nonce CSP (form-action to this
// server only: every form posts here and every answer is a 303 to /account), never cached.
import type { AccountData } from "../../oauth/account/page-data.ts";
import type { SetupFormValues } from "../../views/setup-form.tsx";
import { AccountConfirm } from "../../views/account-confirm.tsx";
import { AccountPage } from "../../views/account-page.tsx";
import { AccountSignInPage } from "../../views/account-sign-in.tsx";
import { AccountSignedInPage } from "../../views/account-signed-in.tsx";
import type { SignInChoice } from "../../views/sign-in-choice.tsx";
import type { OAuthProviders } from "../../oauth/provider-sign-in/registry.ts";
import { ErrorPage } from "../../views/error-page.tsx";
import { contentSecurityPolicy, newNonce } from "../../views/page.ts";
import { html } from "../responses.ts";

type Headers = Record<string, string>;

const page = (render: (nonce: string) => string, status: number, origin: string, headers: Headers = {}): Response => {
  const nonce = newNonce();
  return html(render(nonce), status, contentSecurityPolicy(nonce, origin), headers);
};

/** The sign-in form's OAuth providers, and its form-action: this server and their authorization endpoints (the 303 there). */
export interface SignInPageContext {
  formAction: string;
  signIn: SignInChoice[];
}

export function signInContext(origin: string, providers: OAuthProviders): SignInPageContext {
  const signIn = providers.list().map(({ id, name, label, notes }) => ({ id, name, label, notes }));
  return { formAction: [origin, ...providers.authorizationOrigins()].join(" "), signIn };
}

export function signInPage(ctx: SignInPageContext, formToken: string, values: SetupFormValues, status = 200, error?: string, headers: Headers = {}): Response {
  const { password: _never, ...kept } = values as SetupFormValues & { password?: string };
  return page((nonce) => AccountSignInPage({ nonce, formToken, values: kept, error, signIn: ctx.signIn }), status, ctx.formAction, headers);
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

/** After a provider's sign-in: on to /account from a page of this site, so the Strict cookie goes along. */
export function signedInPage(origin: string, headers: Headers): Response {
  return page((nonce) => AccountSignedInPage({ nonce }), 200, origin, headers);
}
