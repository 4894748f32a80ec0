// The fake OAuth provider's book of codes and tokens: codes bound to a client, redirect URI and PKCE
// challenge; access tokens with a lifetime on the client's clock; refresh tokens that rotate on every
// use (as Microsoft's do), the old one refused from then on; consent revoked per user.
import { createHash, randomBytes } from "node:crypto";

export type Clock = () => number;

export interface FakeClientOptions {
  id: string;
  /** Null: a public client (PKCE only). */
  secret: string | null;
  redirectUris: string[];
  /** Access-token lifetime in seconds (expires_in). */
  accessTtlS: number;
  /** A new refresh token on every refresh, the old one dead (Microsoft); false: the same one kept (Google). */
  rotate: boolean;
  clock: Clock;
}

interface Code { client: string; user: string; redirectUri: string; challenge: string; scope: string; expiresAt: number }
interface Access { client: string; user: string; expiresAt: number }
interface Refresh { client: string; user: string; scope: string }

const random = () => randomBytes(24).toString("base64url");
export const s256 = (v: string) => createHash("sha256").update(v).digest("base64url");

/** An unsigned JWT (alg none): what our server reads the address from (OIDC Core §2). */
export function idToken(iss: string, aud: string, email: string, extra: Record<string, unknown> = {}): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ iss, aud, sub: s256(email).slice(0, 16), email, preferred_username: email, ...extra })}.`;
}

export class TokenBook {
  readonly codes = new Map<string, Code>();
  readonly access = new Map<string, Access>();
  readonly refresh = new Map<string, Refresh>();
  /** Refresh tokens that were rotated out: using one is a replay. */
  readonly spent = new Set<string>();
  /** Every access and refresh token ever issued, for tests that look for them where they must not be. */
  readonly issued: string[] = [];

  issueCode(c: Omit<Code, "expiresAt">, now: number): string {
    const code = random();
    this.codes.set(code, { ...c, expiresAt: now + 600_000 });
    return code;
  }

  takeCode(code: string): Code | null {
    const c = this.codes.get(code) ?? null;
    this.codes.delete(code);
    return c;
  }

  issueAccess(client: FakeClientOptions, user: string): { token: string; expiresIn: number } {
    const token = `at-${random()}`;
    this.issued.push(token);
    this.access.set(token, { client: client.id, user, expiresAt: client.clock() + client.accessTtlS * 1000 });
    return { token, expiresIn: client.accessTtlS };
  }

  issueRefresh(client: string, user: string, scope: string): string {
    const token = `rt-${random()}`;
    this.issued.push(token);
    this.refresh.set(token, { client, user, scope });
    return token;
  }

  /** The user behind a live access token, by its client's clock; null when unknown, expired or revoked. */
  activeUser(token: string, clockOf: (client: string) => Clock): string | null {
    const a = this.access.get(token);
    return a && clockOf(a.client)() < a.expiresAt ? a.user : null;
  }

  /** Consent revoked at the provider: every token of the user dies. */
  revokeUser(user: string): void {
    for (const [t, a] of this.access) if (a.user === user) this.access.delete(t);
    for (const [t, r] of this.refresh) if (r.user === user) this.refresh.delete(t);
  }
}
