// Read-only grants (docs/design.md §3, docs/owner.md §3): the setup form's `access` field picks the grant's
// scope, never wider than the scope the client asked for at /oauth/authorize (RFC 6749 §3.3: the
// server may issue a narrower scope than requested, and says so in the token response).
import { READ_SCOPE, READ_WRITE_SCOPE, WRITE_SCOPE } from "../../scopes.ts";

export type Access = "read" | "read_write";

/** The widest access the form may offer: read-only when the client asked for email:read alone. */
export function widestAccess(requestedScope: string | null): Access {
  const values = (requestedScope ?? "").split(" ").filter(Boolean);
  return values.length > 0 && !values.includes(WRITE_SCOPE) ? "read" : "read_write";
}

export function scopeFor(access: Access): string {
  return access === "read" ? READ_SCOPE : READ_WRITE_SCOPE;
}

export type AccessChoice = { ok: true; access: Access } | { ok: false; message: string };

/** The submitted `access` field checked against what may be offered; absent means the widest offered. */
export function chooseAccess(field: string | undefined, requestedScope: string | null): AccessChoice {
  const widest = widestAccess(requestedScope);
  if (field === undefined || field === "") return { ok: true, access: widest };
  if (field !== "read" && field !== "read_write") return { ok: false, message: "Choose the access to give: read only, or read and write." };
  if (field === "read_write" && widest === "read") {
    return { ok: false, message: "This app asked for read-only access, so only read-only access can be given here." };
  }
  return { ok: true, access: field };
}
