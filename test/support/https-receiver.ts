// A local HTTPS server with a self-signed certificate (made by openssl for 127.0.0.1 and localhost, one day), for
// tests of requests the server makes to a stranger's https URL (RFC 8058 one-click unsubscribe). It
// records every request; routes can answer, redirect or hold. `trust()` adds its certificate to the
// process's default CAs (node:tls setDefaultCACertificates), so the server's own TLS verification
// stays on: before trust() the certificate is refused like any self-signed one.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";

export interface ReceivedRequest { method: string; path: string; contentType: string | null; body: string }

export interface HttpsReceiver {
  url(path: string): string;
  received: ReceivedRequest[];
  /** `path` answers `status` (default 200). */
  answer(path: string, status?: number): string;
  redirect(path: string, location: string): string;
  /** `path` never answers until the server stops. */
  hold(path: string): string;
  trust(): void;
  stop(): Promise<void>;
}

/** A certificate for 127.0.0.1 and localhost and its key (PEM), made by openssl, valid one day. */
export function selfSigned(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "https-receiver-"));
  try {
    const run = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-days", "1"]);
    if (run.exitCode !== 0) throw new Error(`openssl failed: ${run.stderr.toString()}`);
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function startHttpsReceiver(): HttpsReceiver {
  const { cert, key } = selfSigned();
  const routes = new Map<string, () => Response | Promise<Response>>();
  const received: ReceivedRequest[] = [];
  const held: Array<() => void> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1", port: 0, tls: { cert, key },
    async fetch(req) {
      const path = new URL(req.url).pathname;
      received.push({ method: req.method, path, contentType: req.headers.get("content-type"), body: await req.text() });
      return (routes.get(path) ?? (() => new Response("not found", { status: 404 })))();
    },
  });
  const url = (path: string) => `https://127.0.0.1:${server.port}${path}`;
  const add = (path: string, route: () => Response | Promise<Response>) => (routes.set(path, route), url(path));
  const defaults = tls.getCACertificates("default");
  return {
    url, received,
    answer: (path, status = 200) => add(path, () => new Response("ok", { status })),
    redirect: (path, location) => add(path, () => new Response(null, { status: 302, headers: { location } })),
    hold: (path) => add(path, () => new Promise<Response>((resolve) => held.push(() => resolve(new Response("late"))))),
    trust: () => tls.setDefaultCACertificates([...defaults, cert]),
    async stop() {
      tls.setDefaultCACertificates(defaults);
      for (const release of held) release();
      await server.stop(true);
    },
  };
}
