// Where a document's text is written while it is read: bounded at the characters wanted, so a
// reader keeps going past that point only to count what it leaves out, never to hold more text.

export class TextSink {
  private readonly parts: string[] = [];
  private length = 0;
  /** What was left out, in plain words (sheets, rows, columns, slides, properties). */
  readonly omitted: string[] = [];

  constructor(readonly want: number) {}

  get full(): boolean {
    return this.length >= this.want;
  }

  /** Characters still wanted. */
  get room(): number {
    return Math.max(0, this.want - this.length);
  }

  add(text: string): void {
    if (this.full || !text) return;
    this.parts.push(text);
    this.length += text.length;
  }

  line(text: string): void {
    this.add(`${text}\n`);
  }

  omit(what: string): void {
    this.omitted.push(what);
  }

  text(): string {
    return this.parts.join("").replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
  }
}
