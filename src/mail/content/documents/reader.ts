// Documents → text for get_attachment, in bounded time and memory whatever a sender mails: the
// parsing runs in helper processes (./worker.ts, ../helper/) with the PDF reader's ceilings, a
// budget of work time (waiting for a helper does not count) and a memory ceiling; past either the
// process is stopped and the call says why. Helpers are shared fairly between tokens.
import { HelperPool, type HelperPoolOptions } from "../helper/pool.ts";
import { PDF_LIMITS } from "../pdf-text/extract.ts";
import type { DocumentFormat, DocumentOutcome, DocumentText } from "./types.ts";

export type DocumentReaderOptions = Omit<HelperPoolOptions, "role">;

/**
 * The PDF reader's limits: 10 s of work (a 10 MB workbook of 200,000 cells takes ~1-2 s here), a
 * 320 MB ceiling (a helper is ~40 MB resident; the XML streams as it inflates, so only the
 * workbook's shared strings and the text are held), two helpers, stopped after a minute idle.
 */
export const DOCUMENT_LIMITS: DocumentReaderOptions = { ...PDF_LIMITS };

export class DocumentReader {
  private readonly pool: HelperPool<DocumentText>;
  readonly options: DocumentReaderOptions;

  constructor(options: Partial<DocumentReaderOptions> = {}) {
    this.options = { ...DOCUMENT_LIMITS, ...options };
    this.pool = new HelperPool<DocumentText>({ role: "document-text", ...this.options });
  }

  /** The text of a document, enough for `maxChars` (twice it, so a cut can be seen), read on `owner`'s share. */
  async read(bytes: Uint8Array, format: DocumentFormat, charset: string | null, maxChars: number, owner = ""): Promise<DocumentOutcome> {
    const outcome = await this.pool.run(owner, { format, want: 2 * maxChars + 1, charset }, bytes);
    if (outcome.ok) return outcome.value;
    return { kind: outcome.reason === "crash" ? "error" : outcome.reason } as DocumentOutcome;
  }

  close(): void {
    this.pool.close();
  }
}
