// The pages' Content-Security-Policy: strict, with a per-response nonce (the answer itself, never
// cached: src/http/responses.ts html). form-action: 'self' plus the validated redirect_uri's origin, because browsers apply form-action to
// the 303 that follows the POST (CSP3 §6.3.1; docs/oauth.md §7); never 'self' alone.
import { randomBytes } from "node:crypto";

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(nonce: string, formActionOrigin: string | null | "none"): string {
  const directives = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  if (formActionOrigin === "none") directives.push("form-action 'none'");
  else if (formActionOrigin) directives.push(`form-action 'self' ${formActionOrigin}`);
  return directives.join("; ");
}
