// A progress line for runs on a terminal: "scenario n/m, elapsed", on stderr, rewritten in place,
// shown only once the run has taken longer than a second, and erased before the report is printed.
// Nothing at all when stderr is not a terminal (or with --json, where the caller does not make one).

export interface ProgressStream {
  isTTY?: boolean;
  write(s: string): boolean;
}

export class Progress {
  private done = 0;
  private total = 0;
  private text?: string;
  private shown = false;
  private timer?: ReturnType<typeof setInterval>;
  private readonly started: number;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
    private readonly delayMs = 1000,
  ) {
    this.started = now();
  }

  /** Start redrawing (a few times a second) when the stream is a terminal. */
  start(intervalMs = 200): this {
    if (!this.stream.isTTY) return this;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
    return this;
  }

  update(p: { done: number; total: number }): void {
    this.done = p.done;
    this.total = p.total;
    this.tick();
  }

  /** Draw the line if the run has taken long enough (exposed for tests). */
  tick(): void {
    if (!this.stream.isTTY) return;
    const elapsed = this.now() - this.started;
    if (elapsed < this.delayMs) return;
    this.shown = true;
    this.stream.write(`\r\x1b[2K${this.text ?? `mcpspec: scenario ${this.done}/${this.total}, ${(elapsed / 1000).toFixed(1)} s`}`);
  }

  /** Show this text as the line (a run whose progress is not "n of m"), once the run has taken long enough. */
  show(text: string): void {
    this.text = text;
    this.tick();
  }

  /** Erase the line for a moment (to print a line above it); the next tick draws it again. */
  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
  }

  /** Erase the line; call before printing the report. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
