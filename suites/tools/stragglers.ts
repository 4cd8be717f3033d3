// Tool calls that run far longer than the rest. A tool may legitimately work for as long as its
// arguments ask (a generated `duration: 256010` is a valid argument), so a straggler is never judged
// as silent: once some call was judged, mcpspec stops waiting for a call that has run both longer
// than a tenth of the timeout and several times longer than the typical call of its kind (valid or
// near-valid arguments: a server may answer one kind much more slowly, e.g. errors), cancels it
// (CN-01), and reports it as not judged. A uniformly slow server is not affected (its typical call
// is slow too).
// With an explicit --tool-timeout every call is waited for up to that timeout instead.

export interface StragglerOptions {
  /** A call is a straggler past max(minMs, factor × the median duration of finished calls of its kind). */
  minMs: number;
  /** ... or past max(sameToolMinMs, factor × the median of finished calls of its own tool and kind), when there are some. */
  sameToolMinMs: number;
  factor: number;
  /** How often to look. */
  everyMs: number;
}

export function stragglerOptions(timeoutMs: number): StragglerOptions {
  return { minMs: Math.max(1000, timeoutMs / 10), sameToolMinMs: Math.max(250, timeoutMs / 40), factor: 4, everyMs: 50 };
}

interface Running {
  tool: string;
  kind: string;
  started: number;
  controller: AbortController;
}

export class Stragglers {
  private readonly running = new Set<Running>();
  private readonly finishedMs = new Map<string, number[]>();
  private readonly judgedTools = new Set<string>();
  private timer?: NodeJS.Timeout;
  /** Calls cancelled as stragglers, per tool. */
  readonly cancelled = new Map<string, number>();

  constructor(private readonly opts: StragglerOptions) {}

  /** Register a call of a kind; its signal aborts when mcpspec stops waiting for it. */
  start(tool: string, kind: string): { signal: AbortSignal; finish: (judged: boolean, tookMs?: number) => void } {
    const r: Running = { tool, kind, started: Date.now(), controller: new AbortController() };
    this.running.add(r);
    this.timer ??= setInterval(() => this.look(), this.opts.everyMs);
    return {
      signal: r.controller.signal,
      // tookMs: how long the target took (from when the request went out); a call that waited its turn
      // to be sent would otherwise make the typical call look slow and stragglers wait longer.
      finish: (judged, tookMs) => {
        if (!this.running.delete(r)) return;
        if (r.controller.signal.aborted) return;
        const took = tookMs ?? Date.now() - r.started;
        this.finishedMs.set(kind, [...(this.finishedMs.get(kind) ?? []), took]);
        this.finishedMs.set(`${tool}\u0000${kind}`, [...(this.finishedMs.get(`${tool}\u0000${kind}`) ?? []), took]);
        if (judged) this.judgedTools.add(tool);
        if (this.running.size === 0) this.stop();
      },
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    if (this.judgedTools.size === 0) return;
    const now = Date.now();
    for (const r of this.running) {
      const own = this.finishedMs.get(`${r.tool}\u0000${r.kind}`);
      const sorted = [...(own ?? this.finishedMs.get(r.kind) ?? [])].sort((a, b) => a - b);
      if (sorted.length === 0) continue; // nothing to compare with: wait
      const limit = Math.max(own ? this.opts.sameToolMinMs : this.opts.minMs, this.opts.factor * sorted[Math.floor(sorted.length / 2)]);
      if (now - r.started < limit) continue;
      this.running.delete(r);
      this.cancelled.set(r.tool, (this.cancelled.get(r.tool) ?? 0) + 1);
      r.controller.abort(new Error('straggler'));
    }
    if (this.running.size === 0) this.stop();
  }
}
