// The provider's callback for a sign-in the owner's page started (src/oauth/provider-sign-in/callback.ts
// finishes it): the page session's cookie and a page that moves on to /account (views/account-signed-in.tsx
// says why not a 303), or the page's sign-in form with the reason.
// The sign-in cookie is cleared either way, as on every answer of the callback.
import type { Clock } from "../../clock.ts";
import type { AccountSignIn } from "../../oauth/account/sign-in.ts";
import { signInFormToken } from "../../oauth/account/tokens.ts";
import { signedInPage, signInPage, type SignInPageContext } from "./account-answers.ts";
import { setAccountCookie } from "./account-cookie.ts";
import { clearSignInCookie } from "./sign-in-cookie.ts";

export function accountAnswer(config: { baseUrl: string; secretKey: Uint8Array }, ctx: SignInPageContext, clock: Clock, result: AccountSignIn): Response {
  const res = result.kind === "session"
    ? signedInPage(new URL(config.baseUrl).origin, { "set-cookie": setAccountCookie(config.baseUrl, result.id) })
    : signInPage(ctx, signInFormToken(config.secretKey, clock()), {}, result.status, result.message,
      result.retryAfter ? { "retry-after": String(result.retryAfter) } : {});
  res.headers.append("set-cookie", clearSignInCookie(config.baseUrl));
  return res;
}
