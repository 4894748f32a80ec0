// Helpers for RFC 7591 registration tests: register through the app, authorize as the registered client.
import type { Handler } from "./flow.ts";

export interface Registered {
  client_id: string;
  client_secret?: string;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: string;
  [key: string]: unknown;
}

export const LOOPBACK = "http://localhost:5173/callback";

export function registerRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function register(app: Handler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return app.handle(registerRequest(body, headers));
}

/** Registers and returns the client information; fails the test on anything but 201. */
export async function registerOk(app: Handler, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Registered> {
  const res = await register(app, { redirect_uris: [LOOPBACK], client_name: "Test App", ...body }, headers);
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Registered;
}
