// The fake provider's sign-in and consent page: who signs in (the login hint pre-filled) and two
// buttons, Accept and Decline, posting to /authorize/decision.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function consentPage(requestId: string, clientName: string, scope: string, loginHint: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Fake provider: sign in</title></head><body>
<h1>Sign in to Fake Mail</h1>
<p><strong>${esc(clientName)}</strong> asks for: <code>${esc(scope)}</code></p>
<form method="post" action="/authorize/decision">
<input type="hidden" name="request" value="${esc(requestId)}">
<label for="login">Email</label> <input id="login" name="login" value="${esc(loginHint)}">
<button id="accept" name="decision" value="accept">Accept</button>
<button id="decline" name="decision" value="decline">Decline</button>
</form></body></html>`;
}
