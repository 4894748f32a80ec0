// One ZIP entry's content, inflated in small steps with its size counted as it grows: inflating
// past what the central directory said (./zip-directory.ts) is refused at once, so a lying entry
// costs at most one step (~1 MB) more than it declared. Stored (0) and deflated (8) entries only:
// the methods office suites write (APPNOTE §4.4.5); encrypted entries are refused.
import { Inflate } from "fflate";
import { bomb, damaged, type ZipEntry } from "./zip-directory.ts";
import { DocumentRefused } from "./types.ts";

const LOCAL = 0x04034b50;
/** Compressed bytes per step: deflate expands at most ~1032 times, so one step yields ≤ ~4 MB. */
const STEP = 4096;

/** Calls `onChunk` with the entry's bytes as they inflate; returns when all are through. */
export function inflateEntry(zip: Uint8Array, entry: ZipEntry, onChunk: (bytes: Uint8Array) => void): void {
  if (entry.flags & 1) throw new DocumentRefused("it is password-protected, so it cannot be read");
  const data = entryData(zip, entry);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw damaged();
    return onChunk(data);
  }
  if (entry.method !== 8) throw new DocumentRefused(`it uses a ZIP compression method (${entry.method}) office documents do not use`);
  let produced = 0;
  const inflate = new Inflate((chunk) => {
    produced += chunk.length;
    if (produced > entry.size) throw bomb(`its entry ${JSON.stringify(entry.name.slice(0, 80))} expands past the ${entry.size} bytes it declares`);
    onChunk(chunk);
  });
  for (let at = 0; at < data.length; at += STEP) {
    try {
      inflate.push(data.subarray(at, at + STEP), at + STEP >= data.length);
    } catch (err) {
      throw err instanceof DocumentRefused ? err : damaged();
    }
  }
  if (produced !== entry.size) throw damaged();
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
