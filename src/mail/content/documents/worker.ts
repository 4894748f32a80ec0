// The document→text helper process (see ./reader.ts, ../helper/): Office, OpenDocument, RTF, CSV,
// iCalendar and vCard files are parsed here, so one that is slow, huge or built to exhaust memory
// (a zip bomb) costs only this process, which the server stops at its budget or memory ceiling.
// Started by ../helper/roles.ts (the executable: `--content-helper document-text`).
import { serveJobs } from "../helper/serve.ts";
import { readDocument } from "./read-document.ts";
import type { DocumentJob } from "./types.ts";

/** The job: the file's bytes as the payload, {format, want, charset} as the input. */
void serveJobs((input, bytes) => readDocument(input as DocumentJob, bytes));
