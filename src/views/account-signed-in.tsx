// The answer to a provider's callback that opened an owner's page session (docs/owner.md §7). The page
// cookie is SameSite=Strict, and a redirect chain that began at the provider's site is cross-site, so
// a 303 straight to /account would arrive without it (RFC 6265bis §5.2.1, "same-site" requests). This
// page, served by this server, moves on to /account itself (meta refresh, no script), a same-site
// navigation that carries the cookie; the link is there for a browser that does not refresh.
import { Layout } from "./layout.tsx";

export function AccountSignedInPage({ nonce }: { nonce: string }): string {
  return Layout({
    title: "Signed in",
    nonce,
    refreshTo: "/account",
    children: (
      <div class="card">
        <h1>Signed in</h1>
        <p><a href="/account">Continue to your mailbox's apps</a></p>
      </div>
    ) as string,
  });
}
