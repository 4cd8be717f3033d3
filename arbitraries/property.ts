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

/** A generated case under way: its outcome may still be pending. */
export interface Started<T, R> {
  index: number;
  value: T;
  outcome: Promise<R>;
  /** When its evaluation started (ms since the epoch). */
  at: number;
}

/**
 * Start evaluating the `numRuns` values `fc.check` would try with this seed, several at once. The
 * cases come back at once, their outcomes pending, so shrinking can start beside them.
 */
export function startCases<T, R>(arb: fc.Arbitrary<T>, opts: PropertyOptions, evaluate: (value: T) => Promise<R>): Started<T, R>[] {
  const values = fc.sample(arb, { seed: opts.seed, numRuns: opts.numRuns });
  let free = Math.max(1, opts.concurrency ?? 8);
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => (free > 0 ? (free--, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve)));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return values.map((value, index) => {
    const c: Started<T, R> = { index, value, at: Date.now(), outcome: Promise.resolve(undefined as R) };
    c.outcome = acquire()
      .then(() => {
        c.at = Date.now();
        return evaluate(value);
      })
      .finally(release);
    // Whoever reads the outcome sees a failure; until then it is not an unhandled rejection.
    c.outcome.catch(() => undefined);
    return c;
  });
}

/** Evaluate the `numRuns` values `fc.check` would try with this seed, several at once. */
export async function evaluateCases<T, R>(arb: fc.Arbitrary<T>, opts: PropertyOptions, evaluate: (value: T) => Promise<R>): Promise<Evaluated<T, R>[]> {
  return settleCases(startCases(arb, opts, evaluate));
}

/** The outcomes of started cases, once all are in. */
export async function settleCases<T, R>(cases: Started<T, R>[]): Promise<Evaluated<T, R>[]> {
  return Promise.all(cases.map(async (c) => ({ index: c.index, value: c.value, result: await c.outcome })));
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
  // With no time left, a promise already settled still wins: its callbacks run before any timer.
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, ms));
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    p.then(done, done);
  });
}

interface Launched<R> {
  outcome: Promise<{ result: R; failed: boolean }>;
  /** When its evaluation started (a queued case starts later than it was handed over). */
  at: () => number;
  settled: boolean;
}

/** A line of search; a speculative one is dropped (with the lines it started) once the outcome it guessed is known; what it started stays cached. */
interface Line {
  speculative: boolean;
  dropped: boolean;
  parent?: Line;
}
const droppedLine = (l: Line | undefined): boolean => !!l && (l.dropped || droppedLine(l.parent));

/** A node of the search: a generated case (the top level) or a shrink candidate below one. */
interface SearchNode<T> {
  value: T;
  /** fast-check counterexample path. */
  path: string;
  generated: boolean;
  /** Its place in fast-check's shrink tree (a generated case's is found by replaying its run). */
  tree: () => Promise<fc.Value<[T]>>;
}

/**
 * Shrink the first case that `fails` exactly as fast-check would (the first failing case, then the
 * first failing candidate of each level, in fast-check's order), so `seed` + `path` replay the
 * smallest failing case with `fc.check`. The cases may still be under way (see startCases): the
 * search waits for each in order. A failure that is silence costs a whole timeout per level; with
 * `speculateAfterMs`, a case or candidate still unanswered after that long is taken to be failing
 * and its own candidates start at once, so the levels (and the cases themselves) wait side by side
 * instead of one after another (or, with `slowMeans: 'passes'`, taken to be passing and the next
 * candidates start beside it). The guess only decides what starts early: every step taken waits for
 * its real outcome, and the result is the one sequential shrinking gives. Undefined when no case fails.
 */
export async function shrinkFailure<T, R>(
  arb: fc.Arbitrary<T>,
  opts: PropertyOptions,
  cases: readonly (Evaluated<T, R> | Started<T, R>)[],
  evaluate: (value: T) => Promise<R>,
  fails: (result: R, value: T) => boolean,
): Promise<Counterexample<T, R> | undefined> {
  const property = fc.asyncProperty<[T]>(arb, async () => true);
  const started = Date.now();
  const budget = opts.shrinkBudgetMs ?? 30_000;
  const maxEvaluations = opts.maxShrinkEvaluations ?? 30;
  const maxSpeculative = opts.maxSpeculative ?? 4;
  const maxLaunched = 2 * maxEvaluations;
  let smallest: { value: T; result: R; path: string } | undefined;
  let shrinks = 0;
  let evaluations = 0;
  let launchedCount = 0;
  let speculativeInFlight = 0;
  let budgetReached = false;
  const launched = new Map<SearchNode<T>, Launched<R>>();
  const track = (node: SearchNode<T>, at: () => number, outcome: Promise<R>, onSettled?: () => void): Launched<R> => {
    const l: Launched<R> = { at, settled: false, outcome: outcome.then((result) => ({ result, failed: fails(result, node.value) })) };
    void l.outcome
      .finally(() => {
        l.settled = true;
        onSettled?.();
      })
      .catch(() => undefined);
    launched.set(node, l);
    return l;
  };
  const top = cases.map((c): SearchNode<T> => {
    let tree: Promise<fc.Value<[T]>> | undefined;
    const node: SearchNode<T> = { value: c.value, path: String(c.index), generated: true, tree: () => (tree ??= valueAt(property, opts, c.index)) };
    if ('outcome' in c) track(node, () => c.at, c.outcome);
    else {
      const at = Date.now();
      track(node, () => at, Promise.resolve(c.result));
    }
    return node;
  });
  // Children of each node, taken from fast-check's shrinker as far as the search has looked.
  const children = new Map<SearchNode<T> | null, { it?: Iterator<fc.Value<[T]>>; list: SearchNode<T>[]; done: boolean }>([[null, { list: top, done: true }]]);

  const childAt = async (node: SearchNode<T> | null, j: number): Promise<SearchNode<T> | undefined> => {
    let c = children.get(node);
    if (!c && node) {
      const tree = await node.tree();
      c = children.get(node) ?? { it: property.shrink(tree)[Symbol.iterator](), list: [], done: false };
      children.set(node, c);
    }
    if (!c || !node) return c?.list[j];
    while (c.list.length <= j && !c.done) {
      const n = c.it!.next();
      if (n.done) c.done = true;
      else {
        const v = n.value;
        c.list.push({ value: v.value[0], path: `${node.path}:${c.list.length}`, generated: false, tree: async () => v });
      }
    }
    return c.list[j];
  };

  const launch = (node: SearchNode<T>, speculative: boolean): Launched<R> | undefined => {
    const known = launched.get(node);
    if (known) return known;
    // The budget bounds what starts; what already started is still awaited and used.
    if (Date.now() - started > budget) return undefined;
    if (speculative && (speculativeInFlight >= maxSpeculative || launchedCount >= maxLaunched)) return undefined;
    launchedCount++;
    if (speculative) speculativeInFlight++;
    const at = Date.now();
    return track(node, () => at, evaluate(node.value), speculative ? () => speculativeInFlight-- : undefined);
  };

  // Walk down from a node (null: the generated cases): each level's first failing candidate. The
  // real line counts its evaluations and moves `smallest`; a speculative line only starts evaluations early.
  const descend = async (node: SearchNode<T> | null, line: Line, from = 0): Promise<void> => {
    for (let j = from; ; j++) {
      if (droppedLine(line)) return;
      if (!line.speculative && node && evaluations >= maxEvaluations) {
        budgetReached = true;
        return;
      }
      const c = await childAt(node, j);
      if (c === undefined || droppedLine(line)) return;
      const l = launch(c, line.speculative);
      if (!l) {
        if (!line.speculative) budgetReached = true;
        return;
      }
      if (!line.speculative && node) evaluations++;
      let guess: Line | undefined;
      if (opts.speculateAfterMs !== undefined && !l.settled) {
        const quick = await settlesWithin(l.outcome, opts.speculateAfterMs - (Date.now() - l.at()));
        if (!quick && !droppedLine(line)) {
          guess = { speculative: true, dropped: false, parent: line };
          // Slow taken as failing: start this candidate's own candidates; as passing: its next siblings.
          const ahead = opts.slowMeans === 'passes' ? descend(node, guess, j + 1) : descend(c, guess);
          void ahead.catch(() => undefined);
        }
      }
      const o = await l.outcome;
      if (guess) guess.dropped = true;
      if (o.failed) {
        if (!line.speculative) {
          smallest = { value: c.value, result: o.result, path: c.path };
          if (!c.generated) shrinks++;
        }
        return descend(c, line);
      }
    }
  };

  await descend(null, { speculative: false, dropped: false });
  // Evaluations started on a guess finish before the scenario goes on (they are probes like any other).
  await Promise.all([...launched.values()].map((l) => l.outcome.catch(() => undefined)));
  return smallest && { ...smallest, shrinks, budgetReached };
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
