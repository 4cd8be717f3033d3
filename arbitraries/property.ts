// Generated cases as properties against a live peer: seeded, reproducible, shrinkable. The generated
// cases are evaluated concurrently (a silent peer costs one timeout, not one per case); the first
// failing case is then shrunk along fast-check's own shrink tree, so `seed` + `path` reproduce the
// smallest failing case exactly with fc.check.

import fc from 'fast-check';

export interface PropertyOptions {
  seed: number;
  numRuns: number;
  /** Cases evaluated at once. */
  concurrency?: number;
  /**
   * Time budget for shrinking: no candidate starts after it (one that started is still awaited, so
   * shrinking ends within the budget plus one evaluation). The evaluation count bounds it normally.
   */
  shrinkBudgetMs?: number;
  /** Stop shrinking after this many evaluations of candidate cases (keeps the shrunk case deterministic). */
  maxShrinkEvaluations?: number;
  /**
   * While shrinking: a candidate still unanswered after this long is guessed to fail, and its own
   * candidates start at once (see shrinkFailure). Off by default (for peers whose cases have side effects).
   */
  speculateAfterMs?: number;
  /**
   * What a slow candidate usually turns out to be: 'fails' (the default: the failure is silence, so
   * its own candidates start early) or 'passes' (silence is a pass, so its next siblings start early).
   */
  slowMeans?: 'fails' | 'passes';
  /** Evaluations started on a guess at once (default 4). */
  maxSpeculative?: number;
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

/** The generated value of run `index` with its shrink context, as `fc.check` replays it from `seed` and path `index`. */
async function valueAt<T>(property: fc.IAsyncPropertyWithHooks<[T]>, opts: PropertyOptions, index: number): Promise<fc.Value<[T]>> {
  let captured: fc.Value<[T]> | undefined;
  const capturing: fc.IRawProperty<[T], true> = {
    isAsync: () => true,
    generate: (mrng, runId) => {
      const v = property.generate(mrng, runId);
      captured ??= v; // replay generates run `index` first
      return v;
    },
    shrink: (v) => property.shrink(v),
    run: async () => null,
    runBeforeEach: async () => undefined,
    runAfterEach: async () => undefined,
  };
  await fc.check(capturing, { seed: opts.seed, path: String(index), numRuns: opts.numRuns });
  if (!captured) throw new Error(`fast-check did not replay run ${index} of seed ${opts.seed}`);
  return captured;
}

/** Whether `p` settles within `ms` (the timer does not outlive the answer). */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    p.then(done, done);
  });
}

interface Launched<R> {
  outcome: Promise<{ result: R; failed: boolean }>;
  at: number;
  settled: boolean;
}

/** A line of search; a speculative one is dropped (with the lines it started) once the outcome it guessed is known; what it started stays cached. */
interface Line {
  speculative: boolean;
  dropped: boolean;
  parent?: Line;
}
const droppedLine = (l: Line | undefined): boolean => !!l && (l.dropped || droppedLine(l.parent));

/**
 * Shrink the first evaluated case that `fails` exactly as fast-check would (the first failing
 * candidate of each level, in fast-check's order), so `seed` + `path` replay the smallest failing
 * case with `fc.check`. A failure that is silence costs a whole timeout per level; with
 * `speculateAfterMs`, a candidate still unanswered after that long is taken to be failing and its
 * own candidates start at once, so the levels wait side by side instead of one after another (or,
 * with `slowMeans: 'passes'`, taken to be passing and the next candidates start beside it). The
 * guess only decides what starts early: every step taken waits for its real outcome, and the result
 * is the one sequential shrinking gives. Undefined when no case fails.
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
  const property = fc.asyncProperty<[T]>(arb, async () => true);
  const root = await valueAt(property, opts, first.index);
  const started = Date.now();
  const budget = opts.shrinkBudgetMs ?? 30_000;
  const maxEvaluations = opts.maxShrinkEvaluations ?? 30;
  const maxSpeculative = opts.maxSpeculative ?? 4;
  const maxLaunched = 2 * maxEvaluations;
  let smallest = { value: first.value, result: first.result, path: String(first.index) };
  let shrinks = 0;
  let evaluations = 0;
  let launchedCount = 0;
  let speculativeInFlight = 0;
  let budgetReached = false;
  const launched = new Map<fc.Value<[T]>, Launched<R>>();
  const children = new Map<fc.Value<[T]>, { it: Iterator<fc.Value<[T]>>; list: fc.Value<[T]>[]; done: boolean }>();

  const childAt = (node: fc.Value<[T]>, j: number): fc.Value<[T]> | undefined => {
    let c = children.get(node);
    if (!c) children.set(node, (c = { it: property.shrink(node)[Symbol.iterator](), list: [], done: false }));
    while (c.list.length <= j && !c.done) {
      const n = c.it.next();
      if (n.done) c.done = true;
      else c.list.push(n.value);
    }
    return c.list[j];
  };

  const launch = (node: fc.Value<[T]>, speculative: boolean): Launched<R> | undefined => {
    const known = launched.get(node);
    if (known) return known;
    // The budget bounds what starts; what already started is still awaited and used.
    if (Date.now() - started > budget) return undefined;
    if (speculative && (speculativeInFlight >= maxSpeculative || launchedCount >= maxLaunched)) return undefined;
    launchedCount++;
    if (speculative) speculativeInFlight++;
    const value = node.value[0];
    const l: Launched<R> = {
      at: Date.now(),
      settled: false,
      outcome: evaluate(value).then((result) => ({ result, failed: fails(result, value) })),
    };
    void l.outcome.finally(() => {
      l.settled = true;
      if (speculative) speculativeInFlight--;
    }).catch(() => undefined);
    launched.set(node, l);
    return l;
  };

  // Walk down from a failing node: each level's first failing candidate. The real line counts its
  // evaluations and moves `smallest`; a speculative line only starts evaluations early.
  const descend = async (node: fc.Value<[T]>, path: string, line: Line, from = 0): Promise<void> => {
    for (let j = from; ; j++) {
      if (droppedLine(line)) return;
      if (!line.speculative && evaluations >= maxEvaluations) {
        budgetReached = true;
        return;
      }
      const c = childAt(node, j);
      if (c === undefined) return;
      const l = launch(c, line.speculative);
      if (!l) {
        if (!line.speculative) budgetReached = true;
        return;
      }
      if (!line.speculative) evaluations++;
      let guess: Line | undefined;
      if (opts.speculateAfterMs !== undefined && !l.settled) {
        const quick = await settlesWithin(l.outcome, opts.speculateAfterMs - (Date.now() - l.at));
        if (!quick && !droppedLine(line)) {
          guess = { speculative: true, dropped: false, parent: line };
          // Slow taken as failing: start this candidate's own candidates; as passing: its next siblings.
          const ahead = opts.slowMeans === 'passes' ? descend(node, path, guess, j + 1) : descend(c, `${path}:${j}`, guess);
          void ahead.catch(() => undefined);
        }
      }
      const o = await l.outcome;
      if (guess) guess.dropped = true;
      if (o.failed) {
        if (!line.speculative) {
          smallest = { value: c.value[0], result: o.result, path: `${path}:${j}` };
          shrinks++;
        }
        return descend(c, `${path}:${j}`, line);
      }
    }
  };

  await descend(root, String(first.index), { speculative: false, dropped: false });
  // Evaluations started on a guess finish before the scenario goes on (they are probes like any other).
  await Promise.all([...launched.values()].map((l) => l.outcome.catch(() => undefined)));
  return { ...smallest, shrinks, budgetReached };
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
