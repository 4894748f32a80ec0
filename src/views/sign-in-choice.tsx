// The setup form's OAuth mail providers (docs/design.md §5): options in the provider list and, for
// browsers without JavaScript, one "Sign in with …" button each. A button posts the same form with
// `upstream=<id>` and formnovalidate, so neither a password nor an address is needed; with JavaScript
// the buttons are hidden and choosing the provider in the list turns the form's own button into it.
import { Html } from "@kitajs/html";

/** What the form shows of an OAuth mail provider. */
export interface SignInChoice {
  id: string;
  /** Short: "Sign in with Microsoft". */
  name: string;
  /** In the list: "Microsoft (Outlook.com, …)". */
  label: string;
  notes: string;
}

const attr = (value: string): string => Html.escapeHtml(value);

export function SignInOptions({ choices, selected }: { choices: SignInChoice[]; selected?: string }): string {
  if (!choices.length) return "";
  return (
    <optgroup label="Sign in at the provider (no app password)">
      {choices.map((c) => (
        <option value={attr(c.id)} selected={c.id === selected} data-signin={attr(c.name)} data-notes={attr(c.notes)} safe>{c.label}</option>
      ))}
    </optgroup>
  ) as string;
}

export function SignInButtons({ choices }: { choices: SignInChoice[] }): string {
  if (!choices.length) return "";
  return (
    <div id="signin-buttons">
      <p class="hint">Or sign in at your provider instead of using an app password:</p>
      {choices.map((c) => (
        <button type="submit" name="upstream" value={attr(c.id)} formnovalidate class="signin" safe>{`Sign in with ${c.name}`}</button>
      ))}
    </div>
  ) as string;
}
