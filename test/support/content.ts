// Content helpers (HTML and PDF to text, src/mail/content/readers.ts) for tests and the bench that call
// the mail layer directly, without a service to own them: one set per test process, stopped at exit
// (idle helpers also stop by themselves after a minute).
import { closeContentHelpers, contentHelpers, contentReaders, type ContentHelpers, type ContentReaders } from "../../src/mail/content/readers.ts";

let helpers: ContentHelpers | undefined;

export function testReaders(owner = "test"): ContentReaders {
  if (!helpers) {
    const own = (helpers = contentHelpers());
    process.once("exit", () => closeContentHelpers(own));
  }
  return contentReaders(owner, helpers);
}
