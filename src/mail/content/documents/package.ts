// An OOXML or ODF package (a ZIP: ./zip-directory.ts, ./zip-entry.ts) whose XML parts are streamed
// through a SAX parser as they inflate, so a 30 MB sheet is never held whole. Element names are
// given without their namespace prefix; attribute names as written (the office suites always use
// the specifications' conventional prefixes: w:, r:, table:, text:…).
import { Parser } from "htmlparser2";
import { readDirectory, type ZipEntry } from "./zip-directory.ts";
import { inflateEntry } from "./zip-entry.ts";

export type Attributes = Record<string, string>;

export interface XmlHandler {
  open?(name: string, attributes: Attributes): void;
  text?(text: string): void;
  close?(name: string): void;
}

const local = (name: string) => name.slice(name.indexOf(":") + 1);

export class ZipPackage {
  private readonly entries: Map<string, ZipEntry>;

  constructor(private readonly zip: Uint8Array) {
    this.entries = readDirectory(zip);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Streams part `name` through `handler`; false when the package has no such part. */
  xml(name: string, handler: XmlHandler): boolean {
    const entry = this.entries.get(name);
    if (!entry) return false;
    const parser = new Parser({
      onopentag: (tag, attributes) => handler.open?.(local(tag), attributes),
      ontext: (text) => handler.text?.(text),
      onclosetag: (tag) => handler.close?.(local(tag)),
    }, { xmlMode: true, decodeEntities: true });
    const decoder = new TextDecoder();
    inflateEntry(this.zip, entry, (bytes) => parser.write(decoder.decode(bytes, { stream: true })));
    parser.end(decoder.decode());
    return true;
  }

  /**
   * The targets of an OPC relationships part (ECMA-376 Part 2 §9.3), by Id, as package paths.
   * `source` is the part they belong to, e.g. "xl/workbook.xml" → "xl/_rels/workbook.xml.rels".
   */
  relationships(source: string): Map<string, string> {
    const slash = source.lastIndexOf("/");
    const dir = source.slice(0, slash + 1);
    const targets = new Map<string, string>();
    this.xml(`${dir}_rels/${source.slice(slash + 1)}.rels`, {
      open: (name, a) => {
        if (name === "Relationship" && a.Id && a.Target && a.TargetMode !== "External") targets.set(a.Id, resolvePath(dir, a.Target));
      },
    });
    return targets;
  }
}

/** A relationship target against the source part's folder (RFC 3986 §5.2 for a relative one). */
export function resolvePath(dir: string, target: string): string {
  const segments = (target.startsWith("/") ? target.slice(1) : dir + target).split("/");
  const out: string[] = [];
  for (const s of segments) {
    if (s === "..") out.pop();
    else if (s !== "." && s !== "") out.push(s);
  }
  return out.join("/");
}
