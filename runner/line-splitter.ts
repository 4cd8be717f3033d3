// Splits a byte stream into newline-delimited lines (the stdio framing, IO-01). Chunks may end
// mid-line or mid-character; a line longer than the limit is cut rather than buffered without
// bound, and the rest of it is skipped up to the next newline.

import { StringDecoder } from 'node:string_decoder';

export const MAX_LINE_CHARS = 4 * 1024 * 1024;

export type LineHandler = (line: string, truncated: boolean) => void;

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private parts: string[] = [];
  private size = 0;
  private overflow = false;

  constructor(
    private readonly onLine: LineHandler,
    private readonly maxLine = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) {
        this.append(text.slice(start));
        return;
      }
      this.append(text.slice(start, nl));
      this.flush();
      start = nl + 1;
    }
  }

  /** Stream ended: emit a final line without newline, if any. */
  end(): void {
    const rest = this.decoder.end();
    if (rest) this.append(rest);
    if (this.size > 0 || this.overflow) this.flush();
  }

  private append(piece: string): void {
    if (piece.length === 0) return;
    if (this.overflow) return;
    const room = this.maxLine - this.size;
    if (piece.length > room) {
      this.parts.push(piece.slice(0, room));
      this.size = this.maxLine;
      this.overflow = true;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private flush(): void {
    let line = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    if (line.endsWith('\r')) line = line.slice(0, -1); // tolerate CRLF framing
    const truncated = this.overflow;
    this.parts = [];
    this.size = 0;
    this.overflow = false;
    this.onLine(line, truncated);
  }
}
