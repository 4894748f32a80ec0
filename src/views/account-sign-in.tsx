// The owner's page sign-in (docs/owner.md §7): the setup form's mailbox fields (provider, address,
// app password, custom servers), checked by a live login, or a "Sign in with …" button per OAuth mail
// provider (the provider's own sign-in, then the same live login with its token). No script: it works
// without JavaScript.
import { Html } from "@kitajs/html";
import { PROVIDERS } from "../mail/providers/presets.ts";
import { Layout } from "./layout.tsx";
import { ChosenHelp, CustomServer, ProviderOption, type SetupFormValues } from "./setup-form.tsx";
import { SignInButtons, type SignInChoice } from "./sign-in-choice.tsx";

export interface AccountSignInProps {
  nonce: string;
  formToken: string;
  values: SetupFormValues;
  error?: string;
  /** The OAuth mail providers this server offers: one button each (none when there are none). */
  signIn?: SignInChoice[];
}

export function AccountSignInPage({ nonce, formToken, values: v, error, signIn = [] }: AccountSignInProps): string {
  return (
    <Layout title="Your mailbox and its apps — sign in" nonce={nonce}>
      <div class="card">
        <h1>See which apps can use your mailbox</h1>
        <p>Sign in with the mailbox itself to see the apps connected to it, what they did, and to take access back.
          Your password is checked with your mail server now and not kept.</p>
        {error ? <p class="error" role="alert" safe>{error}</p> : ""}
        <form id="account-sign-in" method="post" action="/account/sign-in">
          <input type="hidden" name="csrf_token" value={Html.escapeHtml(formToken)} />
          <label for="provider">Email provider</label>
          <select id="provider" name="provider" required>
            <option value="">Choose your provider…</option>
            {PROVIDERS.map((p) => <ProviderOption p={p} selected={p.id === v.provider} />)}
          </select>
          <ChosenHelp provider={v.provider} />
          <label for="email">Email address</label>
          <input id="email" name="email" type="email" required value={Html.escapeHtml(v.email ?? "")} autocomplete="email"
            autocapitalize="off" spellcheck="false" />
          <label for="password">App password</label>
          <input id="password" name="password" type="password" required autocomplete="current-password" />
          <CustomServer v={v} />
          <button type="submit">Sign in</button>
          <SignInButtons choices={signIn} />
        </form>
      </div>
    </Layout>
  ) as string;
}
