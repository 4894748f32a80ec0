// Bun closes a connection that has sent nothing for `idleTimeout` seconds, even while a response is
// still being produced or streamed (it counts only bytes read). An authenticated /mcp request may
// legitimately run longer than that (a slow tool call, the standalone SSE stream that sends only
// keep-alive comments), so its connection's timeout is lifted for as long as it runs, then put back.
import type { Server } from "bun";

/** Lifts the idle timeout of `request`'s connection; the returned function puts it back (once). */
export function liftIdleTimeout(server: Server<unknown> | null | undefined, request: Request, idleSeconds: number): () => void {
  if (!server) return () => {}; // app.handle() in tests: no socket
  server.timeout(request, 0);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    // The connection may be gone already (client closed the stream); then there is nothing to restore.
    try {
      server.timeout(request, idleSeconds);
    } catch {}
  };
}
