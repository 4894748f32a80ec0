// The wire between the server and a content helper process (./helper-process.ts, ./serve.ts): its
// stdin and stdout carry length-prefixed frames, each [u32 header length][header JSON][u32 payload
// length][payload bytes], big-endian. A PDF's bytes travel as the payload, never inside JSON.

export interface Frame {
  header: Record<string, unknown>;
  payload: Uint8Array;
}

const EMPTY = new Uint8Array(0);

export function encodeFrame(header: Record<string, unknown>, payload: Uint8Array = EMPTY): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, json.length);
  out.set(json, 4);
  view.setUint32(4 + json.length, payload.length);
  out.set(payload, 8 + json.length);
  return out;
}

export class FrameTooLarge extends Error {}

/** Collects chunks from a stream and hands out whole frames; a frame above `maxBytes` is an error. */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  /** Bytes needed before the next frame can be decided on: chunks are joined only once they are there. */
  private need = 4;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Uint8Array): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    for (let frame = this.next(); frame; frame = this.next()) frames.push(frame);
    return frames;
  }

  private next(): Frame | null {
    if (this.buffered < this.need) return null;
    const data = this.flatten();
    const view = new DataView(data.buffer, data.byteOffset, data.length);
    const headerLength = view.getUint32(0);
    if (headerLength > this.maxBytes) throw new FrameTooLarge(`frame header of ${headerLength} bytes`);
    if (data.length < 8 + headerLength) return this.wait(8 + headerLength);
    const payloadLength = view.getUint32(4 + headerLength);
    if (headerLength + payloadLength > this.maxBytes) throw new FrameTooLarge(`frame of ${headerLength + payloadLength} bytes`);
    const end = 8 + headerLength + payloadLength;
    if (data.length < end) return this.wait(end);
    const header = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + headerLength))) as Record<string, unknown>;
    const payload = data.slice(8 + headerLength, end);
    this.chunks = end < data.length ? [data.subarray(end)] : [];
    this.buffered = data.length - end;
    this.need = 4;
    return { header, payload };
  }

  private wait(bytes: number): null {
    this.need = bytes;
    return null;
  }

  /** The buffered bytes as one array (joined once per frame, not per chunk). */
  private flatten(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const all = new Uint8Array(this.buffered);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.chunks = [all];
    return all;
  }
}
