// A plain-HTTP server on loopback that serves client metadata documents (docs/oauth.md §11) for tests,
// with the server's own oddities on demand: oversized, streamed without a length, held without an
// answer, redirected. It counts the requests per path, so a test can tell a cached document from a
// fetched one. Tests allow private hosts, which is what lets plain http on 127.0.0.1 through.

export interface DocumentServer {
  origin: string;
  /** The URL of a path on this server: what a client would use as its client_id. */
  url(path: string): string;
  /** Serve `body` (an object is sent as JSON) at `path` with extra headers. */
  serve(path: string, body: unknown, headers?: Record<string, string>): string;
  /** `path` never answers until the server stops. */
  hold(path: string): string;
  /** `path` answers 302 to `location`. */
  redirect(path: string, location: string): string;
  /** `path` streams `bytes` bytes of JSON-ish text without a Content-Length. */
  stream(path: string, bytes: number): string;
  hits(path: string): number;
  stop(): Promise<void>;
}

type Route = () => Response | Promise<Response>;

export function startDocumentServer(): DocumentServer {
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const held: Array<() => void> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      return (routes.get(path) ?? (() => new Response("not found", { status: 404 })))();
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const url = (path: string) => `${origin}${path}`;
  const add = (path: string, route: Route) => (routes.set(path, route), url(path));
  return {
    origin,
    url,
    serve: (path, body, headers = {}) => add(path, () => new Response(typeof body === "string" ? body : JSON.stringify(body), {
      headers: { "content-type": "application/json", ...headers },
    })),
    hold: (path) => add(path, () => new Promise<Response>((resolve) => held.push(() => resolve(new Response("{}"))))),
    redirect: (path, location) => add(path, () => new Response(null, { status: 302, headers: { location } })),
    stream: (path, bytes) => add(path, () => new Response(new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
        bytes -= 1024;
        if (bytes <= 0) controller.close();
      },
    }), { headers: { "content-type": "application/json" } })),
    hits: (path) => counts.get(path) ?? 0,
    async stop() {
      for (const release of held) release();
      await server.stop(true);
    },
  };
}
