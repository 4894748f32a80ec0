// Reading a stream with a byte cap: counted as it comes and given up (the stream cancelled) past the
// cap, so a huge or endless body costs at most the cap in memory, never the whole body. Shared by
// the HTTP body readers (src/http/body/reader.ts) and the provider sign-in's answers
// (src/oauth/provider-sign-in/capped-body.ts).

/** The bytes of `body`, or null when they are more than `limit` (the rest is never read). */
export async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
