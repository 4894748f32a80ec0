// Client metadata fields (RFC 7591 §2) read the same way from a registration request (./registration.ts)
// and from a client metadata document (./documents/parse.ts); each caller says which error a bad
// value becomes.
import { cleanLine } from "../../mail/content/sanitize.ts";

export const MAX_REDIRECT_URIS = 20;
export const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;

export type Refuse = (description: string) => Error;

export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** Absent, or a name without control, bidi or invisible characters (it is shown on the setup form), ≤ 100 characters. */
export function clientName(value: unknown, refuse: Refuse): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw refuse("client_name must be a string");
  const name = cleanLine(value);
  if (name.length > MAX_NAME_LENGTH) throw refuse(`client_name must be at most ${MAX_NAME_LENGTH} characters`);
  return name || null;
}

/** grant_types and response_types, when given, must include the one flow this server has; scope must be a string. */
export function checkFlowFields(m: Record<string, unknown>, refuse: Refuse): void {
  if (m.grant_types !== undefined && !(isStringArray(m.grant_types) && m.grant_types.includes("authorization_code"))) {
    throw refuse("grant_types must include authorization_code, the only grant this server supports");
  }
  if (m.response_types !== undefined && !(isStringArray(m.response_types) && m.response_types.includes("code"))) {
    throw refuse("response_types must include code");
  }
  if (m.scope !== undefined && typeof m.scope !== "string") throw refuse("scope must be a string");
}
