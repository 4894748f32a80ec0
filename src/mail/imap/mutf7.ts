// Modified UTF-7 (RFC 3501 §5.1.3): how IMAP writes non-ASCII mailbox names, and Gmail its labels
// in X-GM-LABELS. Printable ASCII stands for itself ("&" as "&-"); any other run is "&", the
// UTF-16BE code units in base64 with "," for "/" and no padding, then "-".

export function encodeMutf7(text: string): string {
  return text.replace(/&|[^\x20-\x7e]+/g, (run) => {
    if (run === "&") return "&-";
    const units = Buffer.alloc(run.length * 2);
    for (let i = 0; i < run.length; i++) units.writeUInt16BE(run.charCodeAt(i), i * 2);
    return `&${units.toString("base64").replace(/=+$/, "").replace(/\//g, ",")}-`;
  });
}

export function decodeMutf7(text: string): string {
  return text.replace(/&([A-Za-z0-9+,]*)-/g, (_, b64: string) => {
    if (!b64) return "&";
    const bytes = Buffer.from(b64.replace(/,/g, "/"), "base64");
    let out = "";
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
    return out;
  });
}
