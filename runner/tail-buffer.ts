// Keeps only the last N characters of a stream (the target's stderr): enough to explain a crash
// in a report, never enough to exhaust memory on a chatty server.

export const STDERR_TAIL_CHARS = 64 * 1024;

export class TailBuffer {
  private buf = '';

  constructor(private readonly max = STDERR_TAIL_CHARS) {}

  push(text: string): void {
    this.buf += text;
    // Trim lazily (at 2x) so appends stay amortised O(1).
    if (this.buf.length > this.max * 2) this.buf = this.buf.slice(-this.max);
  }

  toString(): string {
    return this.buf.length > this.max ? this.buf.slice(-this.max) : this.buf;
  }
}
