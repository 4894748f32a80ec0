// The HTML→text helper process (see converter.ts, ../helper/). html-to-text runs here, and turndown
// for Markdown, so a document that is slow to convert (a 4 MB table), too deep to walk (24,000 nested
// tags) or large to hold costs only this process, which the server stops at its budget or memory
// ceiling; the server's event loop never waits on it. Started by ../helper/roles.ts (`--content-helper html-text`).
import { compile } from "html-to-text";
import { serveJobs } from "../helper/serve.ts";
import { markdownConverter } from "./markdown.ts";
import { HTML_TO_TEXT_OPTIONS } from "./options.ts";

const convert = compile(HTML_TO_TEXT_OPTIONS);
let markdown: ((html: string) => string) | undefined; // built on the first Markdown job

// The job: the HTML as the payload (UTF-8), {format} as the input. A throw (RangeError "Maximum call
// stack size exceeded" on deep nesting) is answered as an error; the caller strips tags instead.
void serveJobs((input, payload) => {
  const html = new TextDecoder().decode(payload);
  if ((input as { format?: string } | null)?.format === "markdown") return (markdown ??= markdownConverter())(html);
  return convert(html);
});
