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
  seed: number;
  /** Generated cases per property (tool arguments, near-valid requests). */
  runs: number;
}

/** What a scenario gets: a fresh session on a freshly started target, and the run options. */
export interface ScenarioContext {
  session: Session;
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
