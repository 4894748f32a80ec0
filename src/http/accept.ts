// Content negotiation shared by the routes that answer people and programs alike (GET /,
// GET /oauth/authorize errors): docs/design.md §3.

/** JSON when Accept names application/json before text/html. */
export function prefersJson(accept: string | null): boolean {
  const a = (accept ?? "").toLowerCase();
  const json = a.indexOf("application/json");
  const html = a.indexOf("text/html");
  return json >= 0 && (html < 0 || json < html);
}
