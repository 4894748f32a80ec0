// One ZIP entry's content, inflated by zlib (node:zlib, native in Bun) with its output capped at
// what the central directory said (./zip-directory.ts): zlib stops the moment it would produce
// more (maxOutputLength, ERR_BUFFER_TOO_LARGE), so an entry that lies about its size costs no more
// than it declared, and the declared sizes were bounded before anything was inflated. Measured
// here: a deflate stream of 64 MB of zeros capped at 1000 bytes stops within ~1 ms and +1 MB;
// fflate's streaming Inflate fed in small steps took 2.6 s for 15 MB, zlib 70 ms. Stored (0) and
// deflated (8) entries only, the methods office suites write (APPNOTE §4.4.5); encrypted ones are
// refused. The content is handed on in 1 MB slices, so the text decoded from it is never whole.
import { inflateRawSync } from "node:zlib";
import { bomb, damaged, type ZipEntry } from "./zip-directory.ts";
import { DocumentRefused } from "./types.ts";

const LOCAL = 0x04034b50;
const SLICE = 1024 * 1024;

/** Calls `onChunk` with the entry's bytes, in order; returns when all are through. */
export function inflateEntry(zip: Uint8Array, entry: ZipEntry, onChunk: (bytes: Uint8Array) => void): void {
  if (entry.flags & 1) throw new DocumentRefused("it is password-protected, so it cannot be read");
  const data = entryData(zip, entry);
  let content: Uint8Array;
  if (entry.method === 0) content = data;
  else if (entry.method !== 8) throw new DocumentRefused(`it uses a ZIP compression method (${entry.method}) office documents do not use`);
  else content = inflate(data, entry);
  if (content.length !== entry.size) throw damaged();
  for (let at = 0; at < content.length; at += SLICE) onChunk(content.subarray(at, at + SLICE));
}

function inflate(data: Uint8Array, entry: ZipEntry): Uint8Array {
  try {
    // maxOutputLength must be ≥ 1; an empty entry is one empty deflate block.
    return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw bomb(`its entry ${JSON.stringify(entry.name.slice(0, 80))} expands past the ${entry.size} bytes it declares`);
    }
    throw damaged();
  }
}

/** The entry's stored bytes, located through its local header (APPNOTE §4.3.7). */
function entryData(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const at = entry.localOffset;
  if (at + 30 > zip.length) throw damaged();
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (view.getUint32(at, true) !== LOCAL) throw damaged();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > zip.length) throw damaged();
  return zip.subarray(start, start + entry.compressedSize);
}
