// What the PDF helper (./worker.ts) answers for one PDF, as the server side (./extract.ts) receives
// it: a leaf both import, so the helper's module does not import the server side's.

export type PdfText =
  | { kind: "text"; text: string; pages: number; read: number; unreadable: number }
  | { kind: "encrypted" }
  | { kind: "invalid" };
