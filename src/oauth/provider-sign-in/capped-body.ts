// A provider's answer (token endpoint, userinfo) read with a cap, before anything parses it: a body
// over the cap is cut off and the stream cancelled, so one huge or endless answer costs this server
// at most the cap in memory, never the whole answer (issue 41: a 150 MB token answer grew the server
// by 240 MB when it was read whole and checked after).
import { readCapped } from "../../capped-read.ts";

export const MAX_PROVIDER_ANSWER = 64 * 1024;

/** The body as text, or null when it is longer than `max` bytes (the rest is never read). */
export async function cappedText(res: Response, max = MAX_PROVIDER_ANSWER): Promise<string | null> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return "";
  const bytes = await readCapped(res.body, max);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** The body as a JSON object, or null when it is over the cap, not JSON, or not an object. */
export async function cappedJson(res: Response, max = MAX_PROVIDER_ANSWER): Promise<Record<string, unknown> | null | "too_large"> {
  const text = await cappedText(res, max);
  if (text === null) return "too_large";
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
