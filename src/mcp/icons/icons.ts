// The icons MCP hosts show next to the server, its tools, prompts and the message resource
// (docs/design.md §6): PNGs served from this server's own origin at /icons/NAME-SIZE.png
// (src/http/routes/icons.ts), so a host never loads an image from anywhere else on our behalf.
// The images are drawn by scripts/icons.ts into ./png-data.ts.
import type { Icon } from "@modelcontextprotocol/server";
import { ICON_PNG_BASE64 } from "./png-data.ts";

/** mailbox: the server; read: tools that only read; write: tools that change the mailbox or send. */
export type IconName = "mailbox" | "read" | "write";

const SIZES = [64, 256] as const;

/**
 * The icon's PNGs as MCP lists them (absolute URLs on `baseUrl`, each with its size). Built once per
 * base URL and name, frozen: a 2026-07-28 request builds a server, with its tool's icons, each time.
 */
export function iconsFor(baseUrl: string, name: IconName): Icon[] {
  const key = `${name} ${baseUrl}`;
  let icons = built.get(key);
  if (!icons) {
    icons = Object.freeze(SIZES.map((size) => Object.freeze({ src: `${baseUrl}/icons/${name}-${size}.png`, mimeType: "image/png", sizes: Object.freeze([`${size}x${size}`]) }))) as unknown as Icon[];
    built.set(key, icons);
  }
  return icons;
}

/** One entry per base URL and name: a server has one base URL (tests a few). */
const built = new Map<string, Icon[]>();

const FILES = new Map(Object.entries(ICON_PNG_BASE64).map(([file, base64]) => [`${file}.png`, Buffer.from(base64, "base64") as Buffer<ArrayBuffer>]));

/** The bytes of /icons/FILE (e.g. "read-64.png"), or null for a name that is not one of ours. */
export function iconPng(file: string): Buffer<ArrayBuffer> | null {
  return FILES.get(file) ?? null;
}
