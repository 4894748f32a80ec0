// A ZIP file's table of contents, read from its central directory (PKWARE APPNOTE 6.3.10 §4.3.12,
// §4.3.16) and checked before anything is inflated: the number of entries, what each says it
// expands to, the total, and the ratio of expanded to stored size. What an entry says is checked
// again while it inflates (./zip-entry.ts): a central directory can lie.
import { DocumentRefused } from "./types.ts";

export interface ZipEntry {
  name: string;
  method: number;
  /** General purpose flags; bit 0: encrypted. */
  flags: number;
  compressedSize: number;
  /** What the directory says it expands to; inflating past it is refused. */
  size: number;
  localOffset: number;
}

const MB = 1024 * 1024;

/**
 * Bounds, against what the office suites write: a 10 MB workbook of 200,000 cells has a few dozen
 * entries expanding to ~30 MB. Ratio: Apache POI's ZipSecureFile refuses entries inflating more
 * than 100 times (MIN_INFLATE_RATIO 0.01); small entries are exempt, as there.
 */
export const ZIP_BOUNDS = { entries: 10_000, totalBytes: 256 * MB, entryBytes: 128 * MB, ratio: 100, ratioExemptBytes: 1 * MB };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const ZIP64_MARK = 0xffffffff;

/** The entries of `zip`, or DocumentRefused with the reason. */
export function readDirectory(zip: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = findEnd(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count > ZIP_BOUNDS.entries) throw new DocumentRefused(`it is a ZIP of ${count} entries, more than the ${ZIP_BOUNDS.entries} this server opens`);
  if (at === ZIP64_MARK || count === 0xffff) throw new DocumentRefused("it is a ZIP64 archive, which no ordinary office document needs");
  const entries = new Map<string, ZipEntry>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== CENTRAL) throw damaged();
    const nameLength = view.getUint16(at + 28, true);
    const entry: ZipEntry = {
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true), method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true), size: view.getUint32(at + 24, true), localOffset: view.getUint32(at + 42, true),
    };
    checkEntry(entry);
    total += entry.size;
    if (total > ZIP_BOUNDS.totalBytes) throw bomb(`its entries expand to more than ${ZIP_BOUNDS.totalBytes / MB} MB`);
    entries.set(entry.name, entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

function checkEntry(e: ZipEntry): void {
  if (e.size === ZIP64_MARK || e.compressedSize === ZIP64_MARK) throw new DocumentRefused("it is a ZIP64 archive, which no ordinary office document needs");
  if (e.size > ZIP_BOUNDS.entryBytes) throw bomb(`its entry ${JSON.stringify(e.name.slice(0, 80))} says it expands to ${Math.round(e.size / MB)} MB`);
  if (e.size > ZIP_BOUNDS.ratioExemptBytes && e.size > ZIP_BOUNDS.ratio * e.compressedSize) {
    throw bomb(`its entry ${JSON.stringify(e.name.slice(0, 80))} expands ${Math.round(e.size / Math.max(1, e.compressedSize))} times, more than the ${ZIP_BOUNDS.ratio} times this server allows`);
  }
}

/** The end of central directory record: the last one, within the 64 KB comment that may follow it. */
function findEnd(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw damaged();
}

export const damaged = () => new DocumentRefused("it is not a readable ZIP file (damaged, or not the format its name says)");
export const bomb = (why: string) => new DocumentRefused(`it looks built to exhaust memory (a zip bomb): ${why}; it was not opened`);
