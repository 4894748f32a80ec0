// Raw TCP for requests fetch() cannot send: no Host, a malformed Host, a body that never arrives.
export interface RawReply {
  /** Everything the server sent before it closed (or before `waitMs`). */
  text: string;
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Milliseconds from connect to close (or to giving up). */
  ms: number;
}

function parse(text: string): Pick<RawReply, "status" | "headers" | "body"> {
  const end = text.indexOf("\r\n\r\n");
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: status ? Number(status) : null, headers, body: end < 0 ? "" : text.slice(end + 4) };
}

export interface RawOptions {
  /** Give up (and close) after this long; the reply then has `closed: false`. */
  waitMs?: number;
  /** After `request`, send one more byte of `drip.text` every `drip.everyMs` (a slow-drip body). */
  drip?: { text: string; everyMs: number };
  hostname?: string;
}

/** Writes `request` as is and collects the answer until the server closes or `waitMs` passes. */
export function rawRequest(port: number, request: string, { waitMs = 5000, drip, hostname = "127.0.0.1" }: RawOptions = {}): Promise<RawReply> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let text = "";
    let done = false;
    let dripper: ReturnType<typeof setInterval> | undefined;
    const finish = (closed: boolean, socket?: { end(): void }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(dripper);
      if (!closed) socket?.end();
      resolve({ text, ...parse(text), closed, ms: Math.round(performance.now() - t0) });
    };
    let sock: { end(): void } | undefined;
    const timer = setTimeout(() => finish(false, sock), waitMs); // a bound, not a wait: the server may never close
    Bun.connect({
      hostname, port,
      socket: {
        open(s) {
          sock = s;
          s.write(request);
          let i = 0;
          if (drip) dripper = setInterval(() => i < drip.text.length && s.write(drip.text[i++]!), drip.everyMs);
        },
        data(_s, d) { text += d.toString("latin1"); },
        close() { finish(true); },
        error() { finish(true); },
      },
    }).catch(reject);
  });
}
