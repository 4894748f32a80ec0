// HTML responses for the setup flow: no-store, and a strict CSP with a per-response nonce.
// form-action: 'self' plus the validated redirect_uri's origin, because browsers apply form-action to
// the 303 that follows the POST (STACK-NOTES; CSP3 §6.3.1); never 'self' alone.
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

export function htmlResponse(
  html: string,
  status: number,
  csp: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      pragma: "no-cache",
      "content-security-policy": csp,
      ...extra,
    },
  });
}
