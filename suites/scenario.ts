import type { Exchange, Session } from '../runner/session-types.js';
import type { ExchangeOptions } from '../runner/transport.js';

/** A target spoken to without any session: every body goes out verbatim. */
export interface RawTarget {
  kind: 'stdio' | 'http';
  send(body: unknown, opts: Omit<ExchangeOptions, 'timeoutMs'> & { timeoutMs?: number }): Promise<Exchange>;
}
import type { Check, SpecVersion } from './check.js';

export interface RunOptions {
  /** Call tools whose annotations do not say read-only / non-destructive. */
  allowDestructive: boolean;
  timeoutMs: number;
  /** Budget for one generated tool call; slower calls are reported as not judged. */
  toolTimeoutMs?: number;
  seed: number;
  /** Generated cases per property (tool arguments, near-valid requests). */
  runs: number;
}

/** What a scenario gets: a fresh session on a freshly started target, and the run options. */
export interface ScenarioContext {
  session: Session;
  /** The version the run is judged by (a negotiated version mcpspec has no schema for maps to the nearest). */
  version: '2026-07-28' | '2025-11-25' | '2025-06-18';
  options: RunOptions;
  /** Close the session and start the target again (a scenario that crashed it goes on). */
  reopen(): Promise<Session>;
  /** A freshly started target with no handshake at all, for first-message tests; closed by the engine. */
  openRaw(): Promise<RawTarget>;
  /** Mark a request as deliberately malformed, so the outbound schema check does not flag it. */
  deliberate<T extends Exchange>(ex: Promise<T>): Promise<T>;
}

/**
 * A scripted interaction with the target whose observations several checks judge. Scenarios touch
 * only the Session; checks are pure functions of the observations.
 */
export interface Scenario<O = any> {
  id: string;
  title: string;
  versions: SpecVersion[];
  transports?: ('stdio' | 'http')[];
  /** Legacy sessions that must not send `notifications/initialized` yet. */
  skipInitialized?: boolean;
  run(ctx: ScenarioContext): Promise<O>;
  checks: Check<O>[];
}

export function scenario<O>(s: Scenario<O>): Scenario<O> {
  return s;
}

/**
 * How long a malformed-input probe waits for an answer. A local server refuses garbage in
 * milliseconds; one that drops it silently would otherwise cost the full timeout per probe. A slow
 * or loaded target (a warm request took long) gets proportionally longer.
 */
export function probeTimeout(options: RunOptions, warmMs = 0): number {
  return Math.min(options.timeoutMs, Math.max(500, 10 * warmMs));
}

/**
 * Probe waits that shorten once the target has shown it drops bad input silently: after two
 * unanswered probes in a row each further one waits a short while (150 ms, or three warm round
 * trips on a slow target); an answer restores the full wait.
 */
export class ProbeClock {
  private silent = 0;
  private readonly short: number;
  constructor(
    private readonly max: number,
    warmMs = 0,
  ) {
    this.short = Math.min(max, Math.max(150, 3 * warmMs));
  }

  get timeoutMs(): number {
    return this.silent >= 2 ? this.short : this.max;
  }

  observe(ex: Exchange): Exchange {
    if (ex.response === undefined && !ex.closed) this.silent++;
    else this.silent = 0;
    return ex;
  }
}

/** Run tasks with at most `limit` in flight (requests with distinct ids may overlap on any transport). */
export async function inPool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
