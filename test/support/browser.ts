// Headless Chromium for page tests, and a real callback server for the OAuth redirect (Playwright's
// route() does not see the request that follows a redirect). Same flags as the setup form's test.
import { chromium, type Browser } from "playwright-core";
import { REDIRECT } from "../oauth/flow.ts";
import { freePort } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";

export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  refuseInUnitRun("Chromium");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export interface CallbackServer {
  /** The redirect URI to use: the seed's http://localhost:6274/oauth/callback when 6274 is free. */
  redirect: string;
  /** Extra redirect URIs to configure (the fallback one), or none. */
  extra: string[];
  stop(): void;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const fetch = () => new Response("callback reached", { headers: { "content-type": "text/plain" } });
  try {
    const server = Bun.serve({ port: 6274, hostname: "127.0.0.1", fetch });
    return { redirect: REDIRECT, extra: [], stop: () => server.stop(true) };
  } catch {
    const port = await freePort();
    const server = Bun.serve({ port, hostname: "127.0.0.1", fetch });
    const redirect = `http://localhost:${port}/oauth/callback`;
    return { redirect, extra: [redirect], stop: () => server.stop(true) };
  }
}
