// Generated cases as properties against a live peer: seeded, reproducible, shrinkable. The generated
// cases are evaluated concurrently (a silent peer costs one timeout, not one per case); the first
// failing case is then shrunk by fast-check itself, replaying from its path, so `seed` + `path`
// reproduce the smallest failing case exactly.

import fc from 'fast-check';

export interface PropertyOptions {
  seed: number;
  numRuns: number;
  /** Cases evaluated at once. */
  concurrency?: number;
  /** Time budget for shrinking (a safety net; the evaluation count is what bounds it normally). */
  shrinkBudgetMs?: number;
  /** Stop shrinking after this many evaluations of candidate cases (keeps the shrunk case deterministic). */
  maxShrinkEvaluations?: number;
}

export interface Evaluated<T, R> {
  index: number;
  value: T;
  result: R;
}

export interface Counterexample<T, R> {
  value: T;
  result: R;
  /** fast-check counterexample path: replay with `{ seed, path }`. */
  path: string;
  shrinks: number;
  /** Shrinking stopped at its budget. */
  budgetReached: boolean;
}

export interface PropertyOutcome<T, R> {
  seed: number;
  cases: Evaluated<T, R>[];
  failures: Evaluated<T, R>[];
  /** The first failure, shrunk. */
  shrunk?: Counterexample<T, R>;
}

async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return out;
}

/** Evaluate the `numRuns` values `fc.check` would try with this seed, several at once. */
export async function evaluateCases<T, R>(arb: fc.Arbitrary<T>, opts: PropertyOptions, evaluate: (value: T) => Promise<R>): Promise<Evaluated<T, R>[]> {
  const values = fc.sample(arb, { seed: opts.seed, numRuns: opts.numRuns });
  const results = await pool(values.map((v) => () => evaluate(v)), opts.concurrency ?? 8);
  return values.map((value, index) => ({ index, value, result: results[index] }));
}

/**
 * Shrink the first evaluated case that `fails`, with fast-check replaying from its path, so
 * `seed` + `path` reproduce the smallest failing case exactly. Undefined when no case fails.
 */
export async function shrinkFailure<T, R>(
  arb: fc.Arbitrary<T>,
  opts: PropertyOptions,
  cases: Evaluated<T, R>[],
  evaluate: (value: T) => Promise<R>,
  fails: (result: R, value: T) => boolean,
): Promise<Counterexample<T, R> | undefined> {
  const first = cases.find((c) => fails(c.result, c.value));
  if (!first) return undefined;
  let smallest = { value: first.value, result: first.result };
  let shrinks = -1; // the replayed failure itself is not a shrink
  let evaluations = 0;
  const started = Date.now();
  const budget = opts.shrinkBudgetMs ?? 30_000;
  const maxEvaluations = opts.maxShrinkEvaluations ?? 30;
  let budgetReached = false;
  const property = fc.asyncProperty(arb, async (v) => {
    if (evaluations >= maxEvaluations || Date.now() - started > budget) {
      budgetReached = true;
      return true; // stop descending: the smallest failure so far stands
    }
    evaluations++;
    const r = await evaluate(v);
    if (!fails(r, v)) return true;
    smallest = { value: v, result: r };
    shrinks++;
    return false;
  });
  const details = await fc.check(property, { seed: opts.seed, path: String(first.index), numRuns: opts.numRuns });
  return { ...smallest, path: details.counterexamplePath ?? String(first.index), shrinks: Math.max(0, shrinks), budgetReached };
}

/** Evaluate a property's cases against a peer and shrink its first failure. */
export async function runProperty<T, R>(
  arb: fc.Arbitrary<T>,
  opts: PropertyOptions,
  evaluate: (value: T) => Promise<R>,
  fails: (result: R, value: T) => boolean,
): Promise<PropertyOutcome<T, R>> {
  const cases = await evaluateCases(arb, opts, evaluate);
  const failures = cases.filter((c) => fails(c.result, c.value));
  const outcome: PropertyOutcome<T, R> = { seed: opts.seed, cases, failures };
  outcome.shrunk = await shrinkFailure(arb, opts, cases, evaluate, fails);
  return outcome;
}
