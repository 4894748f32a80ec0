// Fetching a client metadata document (docs/oauth.md §11) under the rules that keep the server from
// being pointed at its own network, the same as for custom mail hosts (src/mail/net/host-policy.ts):
// every address the host resolves to must be global unicast unless MAILBOX_MCP_ALLOW_PRIVATE_HOSTS,
// plain http only to private or loopback addresses (and only with that setting), and the connection
// goes to the address that was checked (a second DNS answer cannot move it: rebinding). Bounded:
// one time budget for DNS, connect, TLS and the body; a size cap; no redirects followed.
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isLocalAddress, isPublicAddress, systemResolver, type Resolver } from "../../../mail/net/host-policy.ts";
import { DocumentProblem } from "./url.ts";

export interface FetchPolicy {
  allowPrivateHosts: boolean;
  resolve?: Resolver;
  /** Whole fetch, DNS to last byte (docs/design.md §3: 5 s). */
  timeoutMs: number;
  /** Largest body accepted (docs/design.md §3: 5 KiB). */
  maxBytes: number;
  userAgent: string;
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
  if (addresses.length === 0) throw new DocumentProblem(`The client metadata document's host ${url.hostname} could not be found.`);
  if (url.protocol === "http:") {
    if (!policy.allowPrivateHosts || !addresses.every(isLocalAddress)) {
      throw new DocumentProblem(`The client metadata document must be served over https (plain http only to this server's own network, when the operator allows private hosts).`);
    }
  } else if (!policy.allowPrivateHosts && !addresses.every(isPublicAddress)) {
    throw new DocumentProblem(`The client metadata document's host ${url.hostname} is on a private network or reserved address, which this server does not fetch from.`);
  }
  return addresses[0]!;
}

/** GET with the connection pinned to `address`; TLS still presents and verifies the URL's host name. */
function get(url: URL, address: string, policy: FetchPolicy, signal: AbortSignal): Promise<FetchedDocument> {
  const family = isIP(address);
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: "GET", signal, headers: { accept: "application/json", "user-agent": policy.userAgent },
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        opts?.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as LookupFunction,
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        const why = status >= 300 && status < 400 ? "answered with a redirect, which is not followed" : `answered HTTP ${status}`;
        return reject(new DocumentProblem(`The client metadata document ${url.href} ${why}.`));
      }
      const tooBig = () => new DocumentProblem(`The client metadata document ${url.href} is larger than ${policy.maxBytes} bytes.`);
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
    req.end();
  });
}

const headerValue = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? v.join(", ") : v ?? null);

/** The document's body and Cache-Control, or a DocumentProblem that says what went wrong. */
export async function fetchDocument(url: URL, policy: FetchPolicy): Promise<FetchedDocument> {
  const controller = new AbortController();
  const seconds = policy.timeoutMs / 1000;
  const late = () => new DocumentProblem(`The client metadata document ${url.href} could not be fetched within ${seconds} seconds.`);
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
    if (err instanceof DocumentProblem) throw err;
    if (controller.signal.aborted) throw late();
    // The socket's own words (addresses, error codes) stay here: the page says only that it failed.
    throw new DocumentProblem(`The client metadata document ${url.href} could not be fetched: the connection or TLS failed.`);
  } finally {
    clearTimeout(timer);
    controller.abort(); // nothing left running after the answer
  }
}
