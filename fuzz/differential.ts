// Differential fuzzing: the same generated sequence run on two sides of one server (stdio and
// Streamable HTTP, or its legacy and modern eras) must get the same answers, step by step, up to
// what the spec lets differ (ids, `_meta`, resultType and caching fields, cursors, error messages).
// A difference is confirmed by running the first side again (a step whose own answers change from
// run to run, like a clock, is not compared), then shrunk like any other finding.

import fc from 'fast-check';
import { setMaxListeners } from 'node:events';
import { shrinkFailure, type PropertyOptions } from '../arbitraries/property.js';
import { declaredMethods, type IdStyle } from '../arbitraries/sequences.js';
import { describeFuzzStep, fuzzSequenceArbitrary, type FuzzStep } from '../arbitraries/fuzz-sequences.js';
import type { VersionChoice } from '../protocol/versions.js';
import { isObj } from '../suites/kit/exchange.js';
import { ParamHeaderBook } from '../runner/param-header-book.js';
import { Recorder } from '../runner/recorder.js';
import type { ServerTarget } from '../runner/server-driver.js';
import type { StartCommand } from '../runner/started-http.js';
import { makeSandbox, type EnvOptions } from '../runner/target-env.js';
import { methodOf, runSequence, targetFactory, type SequenceOutcome } from './run-sequence.js';
import { discover, profileFor, stepAllowed, type Discovery, type FuzzOptions } from './server-campaign.js';

/** One side of the comparison: a target, how it is started, and the version it is spoken to in. */
export interface DifferentialSide {
  label: string;
  target: ServerTarget;
  start?: StartCommand;
  specVersion: VersionChoice;
}

export interface DifferentialOptions extends Pick<FuzzOptions, 'seed' | 'runs' | 'timeMs' | 'timeoutMs' | 'methods' | 'skipMethods' | 'skipTools' | 'allowDestructive' | 'allowOpenWorld' | 'maxLength' | 'maxShrinkEvaluations' | 'signal'> {
  /** eras: the same server in its legacy and modern eras; transports: over stdio and over HTTP. */
  mode: 'eras' | 'transports';
  env?: EnvOptions;
  onEvent?: (e: DifferentialEvent) => void;
}

export interface Difference {
  key: string;
  method: string;
  step: number;
  /** What each side answered at that step (normalised as compared). */
  a: unknown;
  b: unknown;
}

export interface DifferentialFinding extends Difference {
  steps: FuzzStep[];
  seed: number;
  path: string;
  shrinks: number;
  shrunk: boolean;
  count: number;
}

export interface DifferentialResult {
  sides: [string, string];
  runs: number;
  steps: number;
  skippedSteps: number;
  findings: DifferentialFinding[];
  notes: string[];
  durationMs: number;
}

export type DifferentialEvent =
  | { type: 'differential-start'; sides: [string, string]; methods: string[]; tools: string[] }
  | { type: 'sequence'; index: number; steps: number; differences: number }
  | { type: 'difference'; finding: DifferentialFinding };

const CHUNK = 10;

/** What a step got, as the two sides are compared: silence, an error code, or the result without what may differ. */
export function comparable(response: unknown): unknown {
  if (response === undefined) return { silent: true };
  if (!isObj(response)) return { malformed: true };
  if (isObj(response.error)) return { error: response.error.code };
  const result = response.result;
  if (!isObj(result)) return { result };
  // A tool's own error is compared as such: its text may name the transport or the time.
  if (result.isError === true) return { toolError: true };
  return { result: strip(result) };
}

/** Fields the spec lets differ between eras and transports. */
const MAY_DIFFER = new Set(['_meta', 'resultType', 'ttlMs', 'cacheScope']);

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (MAY_DIFFER.has(k)) continue;
    // Cursors are opaque: that one is given is compared, not its value.
    out[k] = k === 'nextCursor' ? typeof x : strip(x);
  }
  return out;
}

/**
 * Error codes only the 2026-07-28 era has: a capability asked for on each request (-32021, MT-05),
 * an unsupported version (-32022), a header that disagrees with the body (-32020). Where one era
 * answers with one of them, the other era had no such rule to break: not a difference.
 */
const MODERN_ONLY_CODES = new Set([-32020, -32021, -32022]);

const modernOnly = (c: unknown) => isObj(c) && typeof c.error === 'number' && MODERN_ONLY_CODES.has(c.error);

/** The steps where two runs of one sequence differ (skipped steps and steps in `unstable` aside). */
export function differences(steps: FuzzStep[], a: SequenceOutcome, b: SequenceOutcome, unstable = new Set<number>(), mode: 'eras' | 'transports' = 'transports'): Difference[] {
  const out: Difference[] = [];
  const n = Math.min(a.records.length, b.records.length);
  for (let i = 0; i < n; i++) {
    const ra = a.records[i];
    const rb = b.records[i];
    if (ra.skipped || rb.skipped || unstable.has(i)) continue;
    const ca = comparable(ra.response);
    const cb = comparable(rb.response);
    if (JSON.stringify(ca) === JSON.stringify(cb)) continue;
    if (mode === 'eras' && (modernOnly(ca) || modernOnly(cb))) continue;
    const method = methodOf(steps[i]);
    out.push({ key: `differential|${method}`, method, step: i, a: ca, b: cb });
  }
  return out;
}

/** The steps whose answers changed between two runs on the same side (not comparable). */
function unstableSteps(x: SequenceOutcome, y: SequenceOutcome): Set<number> {
  const out = new Set<number>();
  const n = Math.max(x.records.length, y.records.length);
  for (let i = 0; i < n; i++) if (JSON.stringify(comparable(x.records[i]?.response)) !== JSON.stringify(comparable(y.records[i]?.response))) out.add(i);
  return out;
}

interface Evaluation {
  diffs: Difference[];
  steps: number;
  skipped: number;
}

/** Run a differential campaign. Throws TargetStartError/HandshakeError when a side cannot be tested. */
export async function differential(sides: [DifferentialSide, DifferentialSide], opts: DifferentialOptions): Promise<DifferentialResult> {
  const started = Date.now();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(new Error('was interrupted'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const end = opts.timeMs !== undefined ? started + opts.timeMs : Number.POSITIVE_INFINITY;
  const endTimer = Number.isFinite(end) ? setTimeout(() => stop.abort(new Error('reached its --time')), end - Date.now()) : undefined;
  const sandboxes = sides.map((s) => (s.target.kind === 'stdio' ? makeSandbox(opts.env, s.target.cwd) : s.start ? makeSandbox(opts.env) : undefined));
  try {
    const recording = new Recorder();
    const factories = sides.map((s, k) => targetFactory(s.target, sandboxes[k], s.start, opts.timeoutMs, new ParamHeaderBook()));
    // Discovery and profile take the campaign's options; the version is each side's own.
    const asFuzz = (specVersion: VersionChoice): FuzzOptions => ({ ...opts, specVersion, signal: stop.signal, env: opts.env, onEvent: undefined });
    const found: Discovery[] = [];
    for (let k = 0; k < 2; k++) found.push(await discover(factories[k], asFuzz(sides[k].specVersion), recording));
    const notes: string[] = [];
    const [da, db] = found;
    // Only what both sides offer: the methods both declare, the tools both list, no transport- or era-specific steps.
    const common = declaredMethods(da.era.era, da.peer.capabilities).filter((m) => declaredMethods(db.era.era, db.peer.capabilities).includes(m));
    const base = profileFor({ version: da.version, tools: da.tools.filter((t) => db.tools.some((u) => u.name === t.name)), era: da.era.era, capabilities: da.peer.capabilities }, asFuzz(sides[0].specVersion), notes);
    const profile = { ...base, methods: base.methods.filter((m) => common.includes(m)), subscriptions: false };
    if (opts.mode === 'eras') notes.push('near-valid raw messages are left out: what makes a message malformed differs between the eras');
    const arb = fuzzSequenceArbitrary(profile, { maxLength: opts.maxLength }, opts.seed).map((steps) => steps.filter((s) => stepAllowed(s, asFuzz(sides[0].specVersion)) && !(opts.mode === 'eras' && s.kind === 'raw')));
    const labels: [string, string] = [sides[0].label, sides[1].label];
    opts.onEvent?.({ type: 'differential-start', sides: labels, methods: profile.methods, tools: profile.tools.map((t) => t.name) });
    const run = (k: number, steps: FuzzStep[], source: string, theme: IdStyle) =>
      runSequence(steps, { factory: factories[k], version: found[k].version, timeoutMs: opts.timeoutMs, resources: found[k].resources, prompts: found[k].prompts, templates: found[k].templates, parent: recording, source: `${source} ${labels[k]}`, signal: stop.signal, idTheme: theme, era: found[k].era.era, capabilities: found[k].peer.capabilities });
    const evaluate = async (steps: FuzzStep[], source: string): Promise<Evaluation> => {
      const [a, b] = await Promise.all([run(0, steps, source, 'counter'), run(1, steps, source, 'counter')]);
      if (stop.signal.aborted || a.startFailure || b.startFailure) return { diffs: [], steps: 0, skipped: 0 };
      let diffs = differences(steps, a, b, undefined, opts.mode);
      if (diffs.length) diffs = differences(steps, a, b, unstableSteps(a, await run(0, steps, `${source} again`, 'counter')), opts.mode);
      return { diffs, steps: a.records.length, skipped: a.records.filter((r, i) => r.skipped || b.records[i]?.skipped).length };
    };

    const totalRuns = opts.runs ?? (opts.timeMs !== undefined ? Number.POSITIVE_INFINITY : 30);
    const findings: DifferentialFinding[] = [];
    const first = new Map<string, { index: number; chunkSeed: number; value: FuzzStep[]; result: Evaluation }>();
    let runs = 0;
    let steps = 0;
    let skippedSteps = 0;
    // Half of --time explores; the rest shrinks what was found.
    const exploreEnd = () => (first.size && Number.isFinite(end) ? end - 0.3 * (opts.timeMs ?? 0) : end);
    for (let n = 0; n < totalRuns && Date.now() < exploreEnd() && !stop.signal.aborted; n++) {
      const k = Math.floor(n / CHUNK);
      const value = fc.sample(arb, { seed: opts.seed + k, numRuns: CHUNK })[n % CHUNK];
      const r = await evaluate(value, `seq-${n}`);
      if (stop.signal.aborted) break;
      runs++;
      steps += r.steps;
      skippedSteps += r.skipped;
      opts.onEvent?.({ type: 'sequence', index: n, steps: r.steps, differences: r.diffs.length });
      for (const d of r.diffs) {
        const known = findings.find((f) => f.key === d.key);
        if (known) {
          known.count++;
          continue;
        }
        const f: DifferentialFinding = { ...d, steps: value.slice(0, d.step + 1), seed: opts.seed + k, path: String(n % CHUNK), shrinks: 0, shrunk: false, count: 1 };
        findings.push(f);
        first.set(d.key, { index: n % CHUNK, chunkSeed: opts.seed + k, value, result: r });
        opts.onEvent?.({ type: 'difference', finding: f });
      }
    }
    for (const f of findings) {
      if (stop.signal.aborted) break;
      const c = first.get(f.key)!;
      const popts: PropertyOptions = { seed: c.chunkSeed, numRuns: CHUNK, concurrency: 1, maxShrinkEvaluations: opts.maxShrinkEvaluations ?? 30, shrinkBudgetMs: Number.isFinite(end) ? Math.max(0, (end - Date.now()) / findings.length) : 120_000 };
      const shrunk = await shrinkFailure(arb, popts, [{ index: c.index, value: c.value, result: c.result }], (s) => evaluate(s, `shrink ${f.key}`), (r) => r.diffs.some((d) => d.key === f.key));
      const d = shrunk?.result.diffs.find((x) => x.key === f.key);
      if (shrunk && d) Object.assign(f, { ...d, steps: shrunk.value.slice(0, d.step + 1), path: shrunk.path, shrinks: shrunk.shrinks, shrunk: true });
      opts.onEvent?.({ type: 'difference', finding: f });
    }
    return { sides: labels, runs, steps, skippedSteps, findings, notes, durationMs: Date.now() - started };
  } finally {
    if (endTimer) clearTimeout(endTimer);
    opts.signal?.removeEventListener('abort', onAbort);
    for (const s of sandboxes) s?.dispose();
  }
}

export function describeDifference(f: DifferentialFinding, sides: [string, string]): string[] {
  return [
    `DIFF at ${f.method} (step ${f.step + 1}; ${f.count} sequence(s); ${f.shrunk ? `shrunk, ${f.shrinks} shrinks` : 'not shrunk'}; seed ${f.seed}, path ${f.path})`,
    `  ${sides[0]}: ${JSON.stringify(f.a).slice(0, 300)}`,
    `  ${sides[1]}: ${JSON.stringify(f.b).slice(0, 300)}`,
    ...f.steps.map((s, i) => `    ${i + 1}. ${describeFuzzStep(s)}`),
  ];
}

