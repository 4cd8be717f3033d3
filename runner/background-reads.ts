// Reads a run keeps going after their exchange returned: the rest of an answered SSE stream, read
// until the server ends it or a request timeout has passed since the answer (whether a server ends
// its streams is known only then). Each read is bounded by that timeout; the driver waits for them all before
// the oracles judge the run, and ends them at once when the run itself ends.

export class BackgroundReads {
  private readonly pending = new Map<Promise<void>, () => void>();

  /** Track a read; `end` stops it at once (its outcome stays unknown). */
  add(read: Promise<void>, end: () => void): void {
    this.pending.set(read, end);
    void read.finally(() => this.pending.delete(read));
  }

  get size(): number {
    return this.pending.size;
  }

  /** Every read tracked so far has ended (or `signal` fired: then the rest are ended at once). */
  async settled(signal?: AbortSignal): Promise<void> {
    const end = () => this.endAll();
    if (signal?.aborted) end();
    signal?.addEventListener('abort', end, { once: true });
    try {
      while (this.pending.size) await Promise.allSettled([...this.pending.keys()]);
    } finally {
      signal?.removeEventListener('abort', end);
    }
  }

  endAll(): void {
    for (const end of [...this.pending.values()]) end();
  }
}
