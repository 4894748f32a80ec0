// bun scripts/icons.ts → src/mcp/icons/png-data.ts: the PNG icons MCP hosts show for the server and
// its tools (docs/design.md §6), drawn here from shapes so the repository holds no opaque image
// files. Deterministic: running it again writes the same bytes (test/mcp/icons.test.ts checks that
// the committed file is what this script makes).
import { deflateSync } from "node:zlib";

type Rgba = [number, number, number, number];
type Shape = (x: number, y: number) => boolean;

const SAMPLES = 4; // 4×4 samples per pixel: smooth edges

/** Distance from (x, y) to the segment a–b. */
function segmentDistance(x: number, y: number, [ax, ay]: number[], [bx, by]: number[]): number {
  const dx = bx! - ax!;
  const dy = by! - ay!;
  const t = Math.max(0, Math.min(1, ((x - ax!) * dx + (y - ay!) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax! + t * dx), y - (ay! + t * dy));
}

const stroke = (points: number[][], width: number): Shape => (x, y) =>
  points.slice(1).some((p, i) => segmentDistance(x, y, points[i]!, p) <= width / 2);

const roundedSquare = (radius: number): Shape => (x, y) => {
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return Math.hypot(x - cx, y - cy) <= radius;
};

const ring = (cx: number, cy: number, r: number, width: number): Shape => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= width / 2;
const disc = (cx: number, cy: number, r: number): Shape => (x, y) => Math.hypot(x - cx, y - cy) <= r;

/** An envelope: its outline and the flap's V, in unit coordinates. */
function envelope(left: number, top: number, right: number, bottom: number, width: number): Shape {
  const mid = (left + right) / 2;
  const outline = stroke([[left, top], [right, top], [right, bottom], [left, bottom], [left, top]], width);
  const flap = stroke([[left, top], [mid, top + (bottom - top) * 0.55], [right, top]], width);
  return (x, y) => outline(x, y) || flap(x, y);
}

interface Layer {
  shape: Shape;
  color: Rgba;
}

const WHITE: Rgba = [255, 255, 255, 255];

const ICONS: Record<string, { background: Rgba; layers: (bg: Rgba) => Layer[] }> = {
  // The server: an envelope.
  mailbox: { background: [37, 99, 235, 255], layers: () => [{ shape: envelope(0.2, 0.3, 0.8, 0.72, 0.07), color: WHITE }] },
  // Reading tools: an envelope under a magnifying glass.
  read: {
    background: [13, 148, 136, 255],
    layers: (bg) => [
      { shape: envelope(0.16, 0.24, 0.7, 0.62, 0.065), color: WHITE },
      { shape: disc(0.62, 0.62, 0.17), color: bg },
      { shape: ring(0.62, 0.62, 0.13, 0.07), color: WHITE },
      { shape: stroke([[0.71, 0.71], [0.84, 0.84]], 0.09), color: WHITE },
    ],
  },
  // Tools that change the mailbox or send: an envelope and a pencil.
  write: {
    background: [234, 88, 12, 255],
    layers: (bg) => [
      { shape: envelope(0.16, 0.24, 0.7, 0.62, 0.065), color: WHITE },
      { shape: stroke([[0.46, 0.86], [0.86, 0.46]], 0.2), color: bg },
      { shape: stroke([[0.5, 0.82], [0.82, 0.5]], 0.1), color: WHITE },
    ],
  },
};

function render(size: number, background: Rgba, layers: Layer[]): Uint8Array {
  const base = roundedSquare(0.2);
  const out = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let s = 0; s < SAMPLES * SAMPLES; s++) {
        const x = (px + ((s % SAMPLES) + 0.5) / SAMPLES) / size;
        const y = (py + (Math.floor(s / SAMPLES) + 0.5) / SAMPLES) / size;
        if (!base(x, y)) continue;
        let color = background;
        for (const layer of layers) if (layer.shape(x, y)) color = layer.color;
        for (let c = 0; c < 4; c++) sum[c]! += color[c]!;
      }
      for (let c = 0; c < 4; c++) out[(py * size + px) * 4 + c] = Math.round(sum[c]! / (SAMPLES * SAMPLES));
    }
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, tail]);
}

/** RGBA 8-bit PNG (RFC 2083): filter type 0 on every row, one IDAT. */
function png(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rows.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 9 })), chunk("IEND", new Uint8Array())]);
}

/** The generated module's text: one base64 constant per icon and size. */
export function iconModule(): string {
  const entries: string[] = [];
  for (const [name, icon] of Object.entries(ICONS)) {
    for (const size of [64, 256]) {
      entries.push(`  "${name}-${size}": "${png(size, render(size, icon.background, icon.layers(icon.background))).toString("base64")}",`);
    }
  }
  return [
    "// Generated by scripts/icons.ts (bun scripts/icons.ts): the PNG icons served at /icons/NAME-SIZE.png",
    "// (./icons.ts, src/http/routes/icons.ts). Do not edit; change the drawing there and run the script again.",
    "export const ICON_PNG_BASE64 = {",
    ...entries,
    "} as const;",
    "",
  ].join("\n");
}

export const ICON_MODULE_PATH = "src/mcp/icons/png-data.ts";

if (import.meta.main) {
  await Bun.write(ICON_MODULE_PATH, iconModule());
  console.log(`wrote ${ICON_MODULE_PATH}`);
}
