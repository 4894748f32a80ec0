// One bounded HTTP request to a URL a stranger gave us (a client metadata document, docs/oauth.md
// §11; a one-click unsubscribe, RFC 8058) under the rules that keep the server from being pointed
// at its own network, the same as for custom mail hosts (./host-policy.ts):
// every address the host resolves to must be global unicast unless MAILBOX_MCP_ALLOW_PRIVATE_HOSTS,
// plain http only to private or loopback addresses (and only with that setting), and the connection
// goes to the address that was checked (a second DNS answer cannot move it: rebinding). Bounded:
// one time budget for DNS, connect, TLS and the body; a size cap; no redirects followed.
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isLocalAddress, isPublicAddress, systemResolver, type Resolver } from "./host-policy.ts";

/** What went wrong, in words for a person; the socket's own words stay here. */
export class FetchProblem extends Error {}

export interface FetchPolicy {
  allowPrivateHosts: boolean;
  resolve?: Resolver;
  /** Whole fetch, DNS to last byte (docs/design.md §3: 5 s). */
  timeoutMs: number;
  /** Largest body accepted (docs/design.md §3: 5 KiB). */
  maxBytes: number;
  userAgent: string;
  /** What is fetched, for the messages: "The client metadata document". */
  what: string;
  /** GET (default), or POST with this form body (RFC 8058 §3.2). */
  post?: string;
  /** Accept header of a GET. */
  accept?: string;
  /** Status codes taken as success (default 200 only). */
  ok?: (status: number) => boolean;
}

export interface FetchedDocument {
  body: string;
  cacheControl: string | null;
}

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, "$1");

/** The address to connect to, after every address of the host passed the rules; else why not. */
async function checkedAddress(url: URL, policy: FetchPolicy): Promise<string> {
  const host = unbracket(url.hostname);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (policy.resolve ?? systemResolver)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new FetchProblem(`${policy.what}'s host ${url.hostname} could not be found.`);
  if (url.protocol === "http:") {
    if (!policy.allowPrivateHosts || !addresses.every(isLocalAddress)) {
      throw new FetchProblem(`${policy.what} must be served over https (plain http only to this server's own network, when the operator allows private hosts).`);
    }
  } else if (!policy.allowPrivateHosts && !addresses.every(isPublicAddress)) {
    throw new FetchProblem(`${policy.what}'s host ${url.hostname} is on a private network or reserved address, which this server does not fetch from.`);
  }
  return addresses[0]!;
}

/** GET with the connection pinned to `address`; TLS still presents and verifies the URL's host name. */
function get(url: URL, address: string, policy: FetchPolicy, signal: AbortSignal): Promise<FetchedDocument> {
  const family = isIP(address);
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: policy.post === undefined ? "GET" : "POST", signal,
      headers: policy.post === undefined
        ? { accept: policy.accept ?? "*/*", "user-agent": policy.userAgent }
        : { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(policy.post)), "user-agent": policy.userAgent },
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        opts?.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as LookupFunction,
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (!(policy.ok ?? ((n: number) => n === 200))(status)) {
        res.resume();
        const why = status >= 300 && status < 400 ? "answered with a redirect, which is not followed" : `answered HTTP ${status}`;
        return reject(new FetchProblem(`${policy.what} ${url.href} ${why}.`));
      }
      const tooBig = () => new FetchProblem(`${policy.what} ${url.href} is larger than ${policy.maxBytes} bytes.`);
      if (Number(res.headers["content-length"] ?? 0) > policy.maxBytes) return req.destroy(tooBig());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) return req.destroy(tooBig());
        chunks.push(chunk);
      });
      res.on("end", () => resolve({ body: Buffer.concat(chunks).toString("utf8"), cacheControl: headerValue(res.headers["cache-control"]) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(policy.post);
  });
}

const headerValue = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? v.join(", ") : v ?? null);

/** The answer's body and Cache-Control, or a FetchProblem that says what went wrong. */
export async function pinnedFetch(url: URL, policy: FetchPolicy): Promise<FetchedDocument> {
  const controller = new AbortController();
  const seconds = policy.timeoutMs / 1000;
  const late = () => new FetchProblem(`${policy.what} ${url.href} could not be fetched within ${seconds} seconds.`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(late());
    }, policy.timeoutMs);
  });
  try {
    return await Promise.race([checkedAddress(url, policy).then((address) => get(url, address, policy, controller.signal)), deadline]);
  } catch (err) {
    if (err instanceof FetchProblem) throw err;
    if (controller.signal.aborted) throw late();
    // The socket's own words (addresses, error codes) stay here: the page says only that it failed.
    throw new FetchProblem(`${policy.what} ${url.href} could not be fetched: the connection or TLS failed.`);
  } finally {
    clearTimeout(timer);
    controller.abort(); // nothing left running after the answer
  }
}
