// Fuzz campaigns against a server: discover what it declares, generate sequences of steps as a
// fast-check property, run each sequence on a fresh target (stdio: a new process; HTTP: a new
// session), judge every step, de-duplicate findings by oracle + method, shrink each to a minimal
// sequence (fast-check replaying from its seed and path) and save it as a repro file.

import { setMaxListeners } from 'node:events';
import { shrinkFailure, type Evaluated, type PropertyOptions } from '../arbitraries/property.js';
import { declaredMethods, type IdStyle } from '../arbitraries/sequences.js';
import { describeFuzzStep, fuzzSequenceArbitrary, idTheme, type FuzzProfile, type FuzzStep } from '../arbitraries/fuzz-sequences.js';
import { isModernVersion, judgedVersion, type SpecVersion, type VersionChoice } from '../protocol/versions.js';
import type { EraInfo, PeerInfo, TargetInfo } from '../results/run.js';
import { listAll, resultOf } from '../suites/kit/exchange.js';
import { mayCall, schemaProblem, type Tool } from '../suites/tools/scenario.js';
import fc from 'fast-check';
import { listedPrompts, methodOf, runSequence, targetFactory, type ListedPrompt, targetInfo, type Observation, type SequenceContext, type SequenceOutcome } from './run-sequence.js';
import { ruleOf, type OracleId } from './oracles.js';
import { ParamHeaderBook } from '../runner/param-header-book.js';
import { Recorder } from '../runner/recorder.js';
import { REPRO_VERSION, writeRepro, type Repro } from './replay.js';
import type { ServerTarget } from '../runner/server-driver.js';
import { openSession } from '../runner/session.js';
import { makeSandbox, type EnvOptions } from '../runner/target-env.js';
import { usesPortPlaceholder, type StartCommand } from '../runner/started-http.js';
import type { TransportFactory } from '../runner/transport.js';

export interface FuzzOptions {
  specVersion: VersionChoice;
  seed: number;
  /** Sequences to run (default 50 without `timeMs`, unbounded with it). */
  runs?: number;
  /** The whole run's length, shrinking included: everything still under way then is stopped. */
  timeMs?: number;
  /** A hard stop (whichever of it and `timeMs` comes first ends the run). */
  deadlineMs?: number;
  /** The part of `timeMs` kept for shrinking once something is found (default 0.3). */
  shrinkShare?: number;
  timeoutMs: number;
  /** Only these methods (`tools/call`, `resources/read` and notification methods included). */
  methods?: string[];
  skipMethods?: string[];
  skipTools?: string[];
  allowDestructive: boolean;
  allowOpenWorld: boolean;
  /** Longest generated sequence (default 8). */
  maxLength?: number;
  /** Sequences run at once, each on its own fresh target (default 2). */
  concurrency?: number;
  /** Candidate sequences tried while shrinking one finding (default 40). */
  maxShrinkEvaluations?: number;
  /** Write one repro file per finding here. */
  reproDir?: string;
  env?: EnvOptions;
  /**
   * HTTP only: start the server with this command for every sequence and every shrink candidate
   * (and stop it after), so each runs on a fresh server. A `{port}` in the URL and the command is
   * replaced by a free port per start; without it starts run one at a time on the URL's port.
   */
  start?: StartCommand;
  signal?: AbortSignal;
  onEvent?: (e: FuzzEvent) => void;
  toolVersion?: string;
}

export interface FuzzFinding {
  key: string;
  oracle: OracleId;
  level: 'MUST' | 'SHOULD';
  method: string;
  message: string;
  /** Generated sequences (before shrinking) that showed it. */
  count: number;
  /** The minimal sequence: the shrunk one, cut after the step that broke the rule. */
  steps: FuzzStep[];
  /** The id style the sequence ran with (ID_THEMES); replay uses it too. */
  idTheme: IdStyle;
  /** What those steps sent, resolved (ids, listed URIs). */
  sent: unknown[];
  evidence: Observation['evidence'];
  seed: number;
  path: string;
  shrinks: number;
  shrinkBudgetReached: boolean;
  /** The fast-check shrink confirmed the failure on a fresh target (false: it did not show again). */
  reproduced: boolean;
  /** Shrunk to `steps` (false: `steps` is the generated sequence, cut after the step that broke the rule). */
  shrunk: boolean;
  /** Why it is not (fully) shrunk, when it is not. */
  shrinkNote?: string;
  /** The check whose rule broke (a record of the catalogue), its requirement IDs and spec section. */
  check: string;
  requirements: string[];
  spec: string;
  repro?: string;
}

export interface FuzzResult {
  target: TargetInfo;
  era: EraInfo;
  peer: PeerInfo;
  profile: FuzzProfile;
  seed: number;
  runs: number;
  steps: number;
  startFailures: number;
  startedAt: string;
  durationMs: number;
  findings: FuzzFinding[];
  notes: string[];
  recording: Recorder;
  /** Why the run ended before its sequences did (interrupted, --time, --deadline). */
  stopped?: string;
}

export type FuzzEvent =
  | { type: 'fuzz-start'; target: TargetInfo; era: EraInfo; seed: number; methods: string[]; tools: string[]; notes: string[] }
  | { type: 'sequence'; index: number; steps: number; observations: { oracle: OracleId; check: string; method: string; step: number }[]; startFailure?: string; durationMs: number }
  /** A finding: once when found (`shrunk: false`), again once shrinking is over. */
  | { type: 'finding'; finding: FuzzFinding }
  | { type: 'shrinking'; index: number; of: number; key: string }
  | { type: 'progress'; sequences: number; steps: number; findings: number; elapsedMs: number };

const MAX_TOOLS = 25;
const CHUNK = 10;
export const DEFAULT_SHRINK_SHARE = 0.3;

type Outcome = SequenceOutcome & { idTheme: IdStyle; cut: boolean };

export interface Discovery {
  era: EraInfo;
  peer: PeerInfo;
  version: SpecVersion;
  tools: Tool[];
  resources: string[];
  prompts: ListedPrompt[];
  templates: string[];
}

export async function discover(factory: TransportFactory, opts: FuzzOptions, recorder: Recorder): Promise<Discovery> {
  const session = await openSession(factory, { specVersion: opts.specVersion, timeoutMs: opts.timeoutMs, recorder: new Recorder({ parent: recorder, source: 'discover' }), signal: opts.signal });
  try {
    const version = judgedVersion(session.version);
    const era: EraInfo = { era: session.era, version: session.version, judgedBy: version, detected: opts.specVersion === 'auto', reason: session.detection?.reason ?? `--spec-version ${opts.specVersion}` };
    const peer: PeerInfo = { info: session.serverInfo, capabilities: session.capabilities };
    let tools: Tool[] = [];
    if ('tools' in session.capabilities) {
      const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools', 5);
      tools = listed.items.filter((t): t is Tool => typeof t.name === 'string');
    }
    let resources: string[] = [];
    if ('resources' in session.capabilities) {
      const r = resultOf(await session.request('resources/list', {}));
      if (r && Array.isArray(r.resources)) resources = r.resources.filter((x): x is { uri: string } => typeof (x as { uri?: unknown })?.uri === 'string').map((x) => x.uri);
    }
    let prompts: ListedPrompt[] = [];
    if ('prompts' in session.capabilities) {
      const listed = await listAll((cursor) => session.request('prompts/list', cursor === undefined ? {} : { cursor }), 'prompts', 5);
      prompts = listedPrompts(listed.items);
    }
    let templates: string[] = [];
    if ('resources' in session.capabilities) {
      const listed = await listAll((cursor) => session.request('resources/templates/list', cursor === undefined ? {} : { cursor }), 'resourceTemplates', 5);
      templates = listed.items.flatMap((t) => (typeof t.uriTemplate === 'string' ? [t.uriTemplate] : []));
    }
    return { era, peer, version, tools, resources, prompts, templates };
  } finally {
    await session.close().catch(() => undefined);
  }
}

/** Which tools the sequences may call, and why the others are left out. */
function callableTools(tools: Tool[], opts: FuzzOptions & { httpModern?: boolean }, notes: string[]): Tool[] {
  const out: Tool[] = [];
  for (const t of tools.slice(0, MAX_TOOLS)) {
    if (opts.skipTools?.includes(t.name)) continue;
    const why = mayCall(t, opts) ?? schemaProblem(t.inputSchema);
    if (why) {
      notes.push(`tool ${t.name} is not called: ${why}`);
      continue;
    }
    out.push(t);
  }
  return out;
}

function allowed(method: string, opts: FuzzOptions): boolean {
  if (opts.methods && !opts.methods.includes(method)) return false;
  return !opts.skipMethods?.includes(method);
}

/** The steps a profile allows, after --methods/--skip-methods (tools/call and resources/read count as methods). */
export function profileFor(d: Pick<Discovery, 'version' | 'tools'> & { era: 'legacy' | 'modern'; capabilities: Record<string, unknown>; transport?: 'stdio' | 'http' }, opts: FuzzOptions, notes: string[]): FuzzProfile {
  return {
    transport: d.transport,
    version: d.version,
    era: d.era,
    methods: declaredMethods(d.era, d.capabilities).filter((m) => allowed(m, opts)),
    tools: allowed('tools/call', opts) ? callableTools(d.tools, { ...opts, httpModern: d.transport === 'http' && d.era === 'modern' }, notes).map((t) => ({ name: t.name, inputSchema: t.inputSchema as Record<string, unknown> })) : [],
    resources: 'resources' in d.capabilities && allowed('resources/read', opts),
    prompts: 'prompts' in d.capabilities && allowed('prompts/get', opts),
    completions: 'completions' in d.capabilities && ('prompts' in d.capabilities || 'resources' in d.capabilities),
    subscriptions: d.era === 'legacy' && (d.capabilities.resources as { subscribe?: unknown } | undefined)?.subscribe === true,
  };
}

/** Only steps whose method --methods/--skip-methods allow (tool calls and the listed methods are chosen in the profile). */
export function stepAllowed(s: FuzzStep, opts: FuzzOptions): boolean {
  if (s.kind === 'joined') return s.requests.every((q) => allowed(q.method, opts));
  if (s.kind === 'split' || s.kind === 'headers' || s.kind === 'sse') return s.method === 'tools/call' ? allowed('tools/call', opts) : allowed(s.method, opts);
  return s.kind === 'call' || allowed(methodOf(s), opts);
}

/** A finding as first seen: the generated sequence, cut after the step that broke the rule. */
function findingOf(key: string, obs: Observation, steps: FuzzStep[], out: SequenceOutcome, theme: IdStyle, seed: number, path: string): FuzzFinding {
  const rule = ruleOf(obs.check);
  return {
    key,
    oracle: obs.oracle,
    level: obs.level,
    check: rule.id,
    requirements: rule.requirements,
    spec: rule.spec,
    method: obs.method,
    message: obs.message,
    count: 1,
    steps,
    idTheme: theme,
    sent: out.records.slice(0, obs.step + 1).map((r) => r.sent ?? null),
    evidence: obs.evidence,
    seed,
    path,
    shrinks: 0,
    shrinkBudgetReached: false,
    reproduced: true,
    shrunk: false,
  };
}

function reproFor(f: FuzzFinding, target: TargetInfo, d: Discovery, opts: FuzzOptions, paramHeaders: ParamHeaderBook): Repro {
  const repro: Repro = {
    reproVersion: REPRO_VERSION,
    tool: { name: 'mcpspec', version: opts.toolVersion ?? 'unknown' },
    target,
    specVersion: d.version,
    era: d.era.era,
    seed: f.seed,
    path: f.path,
    finding: { key: f.key, oracle: f.oracle, check: f.check, requirements: f.requirements, spec: f.spec, level: f.level, method: f.method, message: f.message, title: ruleOf(f.check).title },
    capabilities: d.peer.capabilities,
    shrunk: f.shrunk,
    steps: f.steps,
    idTheme: f.idTheme,
    sent: f.sent,
    resources: d.resources,
    prompts: d.prompts,
    templates: d.templates,
    evidence: f.evidence,
    timeoutMs: opts.timeoutMs,
  };
  if (opts.start) repro.start = opts.start;
  const toolHeaders = paramHeaders.table();
  if (Object.keys(toolHeaders).length) repro.toolHeaders = toolHeaders;
  return repro;
}

/** Run a fuzz campaign against a server. Throws TargetStartError/HandshakeError when the target cannot be tested at all. */
export async function fuzz(spec: ServerTarget, opts: FuzzOptions): Promise<FuzzResult> {
  const startedAt = new Date();
  if (opts.start && spec.kind !== 'http') throw new Error('a start command goes with an HTTP target (--url); a stdio target is started anyway');
  const sandbox = spec.kind === 'stdio' ? makeSandbox(opts.env, spec.cwd) : opts.start ? makeSandbox(opts.env) : undefined;
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(new Error('was interrupted'));
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // The run's end: --time (the whole run, shrinking included) or --deadline, whichever comes first.
  // Everything still under way then is aborted: its targets are stopped, and what was found is reported.
  const byTime = opts.timeMs !== undefined ? startedAt.getTime() + opts.timeMs : Number.POSITIVE_INFINITY;
  const byDeadline = opts.deadlineMs !== undefined ? startedAt.getTime() + opts.deadlineMs : Number.POSITIVE_INFINITY;
  const clock = { end: Math.min(byTime, byDeadline) };
  const endTimer = Number.isFinite(clock.end) ? setTimeout(() => stop.abort(new Error(byDeadline <= byTime ? 'reached its --deadline' : 'reached its --time')), clock.end - Date.now()) : undefined;
  const stopReason = () => (stop.signal.reason instanceof Error ? stop.signal.reason.message : 'was stopped');
  try {
    // Learnt at discovery, sent by every sequence, and kept in the repros for their replays.
    const paramHeaders = new ParamHeaderBook();
    const factory = targetFactory(spec, sandbox, opts.start, opts.timeoutMs, paramHeaders);
    const recording = new Recorder();
    const d = await discover(factory, { ...opts, signal: stop.signal }, recording);
    const notes: string[] = [];
    const profile = profileFor({ version: d.version, tools: d.tools, era: d.era.era, capabilities: d.peer.capabilities, transport: spec.kind }, opts, notes);
    // Fixed port: two started servers cannot listen at once.
    const oneAtATime = spec.kind === 'http' && opts.start !== undefined && !usesPortPlaceholder(spec.url, opts.start);
    if (spec.kind === 'http' && opts.start) notes.push(`each sequence and each shrink candidate runs on a freshly started server (--start)${oneAtATime && (opts.concurrency ?? 2) > 1 ? '; one at a time, as the URL names a fixed port (use {port} in the URL and the command to run several at once)' : ''}`);
    else if (spec.kind === 'http' && isModernVersion(d.version)) notes.push('2026-07-28 over HTTP has no sessions: every sequence (and shrink candidate) runs against the same server process, so they share its state; give --start -- <cmd> for a fresh server each');
    else if (spec.kind === 'http') notes.push('each sequence runs in a new HTTP session of the same server process (state outside the session is shared; --start -- <cmd> gives a fresh server each)');
    const target = targetInfo(spec);
    opts.onEvent?.({ type: 'fuzz-start', target, era: d.era, seed: opts.seed, methods: profile.methods, tools: profile.tools.map((t) => t.name), notes });

    const arb = fuzzSequenceArbitrary(profile, { maxLength: opts.maxLength }, opts.seed).map((steps) => steps.filter((s) => stepAllowed(s, opts)));
    const ctx = (source: string, theme: IdStyle, signal: AbortSignal): SequenceContext => ({ factory, version: d.version, timeoutMs: opts.timeoutMs, resources: d.resources, prompts: d.prompts, templates: d.templates, parent: recording, source, signal, idTheme: theme, era: d.era.era, capabilities: d.peer.capabilities });
    const runOne = (source: string, theme: IdStyle, signal: AbortSignal = stop.signal) => async (steps: FuzzStep[]): Promise<Outcome> => {
      const out = await runSequence(steps, ctx(source, theme, signal));
      // A sequence cut short (the end of the run, or of exploring) is not judged: what it saw before the cut stands.
      return { ...out, idTheme: theme, cut: signal.aborted };
    };
    const totalRuns = opts.runs ?? (opts.timeMs !== undefined ? Number.POSITIVE_INFINITY : 50);
    const concurrency = oneAtATime ? 1 : (opts.concurrency ?? 2);
    const share = opts.shrinkShare ?? DEFAULT_SHRINK_SHARE;
    if (opts.timeMs !== undefined) notes.push(`--time ${Math.round(opts.timeMs / 1000)} s bounds the whole run: once something is found, shrinking gets the last ${Math.round(share * 100)}% of it`);

    const findings: FuzzFinding[] = [];
    const byKey = new Map<string, { finding: FuzzFinding; first: Evaluated<FuzzStep[], Outcome>; chunkSeed: number }>();
    const reproOf = (f: FuzzFinding): string | undefined => (opts.reproDir ? writeRepro(opts.reproDir, reproFor(f, target, d, opts, paramHeaders)) : undefined);
    let done = 0;
    let steps = 0;
    let startFailures = 0;
    let started = 0;
    // Exploring ends at the end of the run, or earlier once something is found (to leave shrinking its share).
    const exploreEnd = () => (findings.length && opts.timeMs !== undefined ? clock.end - share * opts.timeMs : clock.end);
    const exploring = () => started < totalRuns && Date.now() < exploreEnd() && !stop.signal.aborted;
    // Sequences still under way when exploring ends are cut there: a sequence waiting out timeouts
    // would otherwise eat into the share kept for shrinking.
    const exploreStop = new AbortController();
    setMaxListeners(0, exploreStop.signal);
    const endExploring = () => exploreStop.abort(stop.signal.reason ?? new Error('exploring ended'));
    stop.signal.addEventListener('abort', endExploring, { once: true });
    let exploreTimer: NodeJS.Timeout | undefined;
    const armExploreEnd = () => {
      const at = exploreEnd();
      if (exploreTimer || !Number.isFinite(at) || at >= clock.end) return;
      exploreTimer = setTimeout(endExploring, Math.max(0, at - Date.now()));
    };
    const progress = () => opts.onEvent?.({ type: 'progress', sequences: done, steps, findings: findings.length, elapsedMs: Date.now() - startedAt.getTime() });

    // Sequence n is run `n % CHUNK` of the fast-check seed `seed + floor(n / CHUNK)`: its (seed, path)
    // alone replays it. The cases are handed to a pool: a hanging sequence holds one slot, not the run.
    const chunkValues = new Map<number, FuzzStep[][]>();
    const caseAt = (n: number): FuzzStep[] => {
      const k = Math.floor(n / CHUNK);
      let values = chunkValues.get(k);
      if (!values) {
        values = fc.sample(arb, { seed: opts.seed + k, numRuns: CHUNK });
        chunkValues.set(k, values);
      }
      return values[n % CHUNK];
    };
    const worker = async () => {
      while (exploring()) {
        const n = started++;
        const value = caseAt(n);
        const theme = idTheme(n);
        const out = await runOne(`seq-${n}`, theme, exploreStop.signal)(value);
        if (out.cut && out.observations.length === 0) continue;
        done++;
        steps += out.records.length;
        if (out.startFailure) {
          if (startFailures++ === 0) notes.push(`a fresh target could not be started for some sequences (not judged); the first: ${out.startFailure.split('\n')[0].slice(0, 300)}`);
        }
        opts.onEvent?.({ type: 'sequence', index: n, steps: out.records.length, observations: out.observations.map((o) => ({ oracle: o.oracle, check: o.check, method: o.method, step: o.step })), startFailure: out.startFailure, durationMs: out.durationMs });
        for (const key of new Set(out.observations.map((o) => o.key))) {
          const known = byKey.get(key);
          if (known) {
            known.finding.count++;
            continue;
          }
          // Found: reported and saved at once, as generated (cut after the step that broke the rule); shrunk later.
          const obs = out.observations.find((o) => o.key === key)!;
          const f = findingOf(key, obs, value.slice(0, obs.step + 1), out, theme, opts.seed + Math.floor(n / CHUNK), String(n % CHUNK));
          f.repro = reproOf(f);
          findings.push(f);
          byKey.set(key, { finding: f, first: { index: n % CHUNK, value, result: out }, chunkSeed: opts.seed + Math.floor(n / CHUNK) });
          opts.onEvent?.({ type: 'finding', finding: { ...f } });
          armExploreEnd();
        }
        progress();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    clearTimeout(exploreTimer);
    stop.signal.removeEventListener('abort', endExploring);

    // Shrinking, on fresh targets, within what is left of the run: one bug often breaks a rule on
    // many methods, so every broken rule gets its shortest finding shrunk before any rule gets a second.
    const maxEvaluations = opts.maxShrinkEvaluations ?? 40;
    const order = shrinkOrder(findings);
    const rules = new Set(findings.map((f) => f.check)).size;
    for (let i = 0; i < order.length; i++) {
      const f = order[i];
      const entry = byKey.get(f.key)!;
      if (stop.signal.aborted) {
        f.shrinkNote = `not shrunk: the run ${stopReason()}`;
        continue;
      }
      opts.onEvent?.({ type: 'shrinking', index: i + 1, of: order.length, key: f.key });
      const left = clock.end - Date.now();
      // The time left is shared among the rules' first findings still to shrink, then among the rest.
      const sharing = i < rules ? rules - i : order.length - i;
      const perFinding = Number.isFinite(left) ? Math.max(0, left / sharing) : Math.max(60_000, 20 * opts.timeoutMs);
      const popts: PropertyOptions = { seed: entry.chunkSeed, numRuns: CHUNK, concurrency, maxShrinkEvaluations: maxEvaluations, shrinkBudgetMs: perFinding };
      // A hang costs a timeout per shrink level: a candidate still running after a quarter of the
      // timeout is guessed to hang and its own candidates start beside it, within --concurrency.
      if (concurrency > 1) {
        popts.speculateAfterMs = Math.min(2_500, opts.timeoutMs / 4);
        popts.maxSpeculative = concurrency - 1;
      }
      const shrinkStart = Date.now();
      const holds = (r: Outcome) => r.observations.some((o) => o.key === f.key);
      let evaluations = 0;
      const timeLeft = () => maxEvaluations - evaluations > 0 && !stop.signal.aborted && Date.now() - shrinkStart < perFinding;
      const run = async (steps: FuzzStep[]) => {
        evaluations++;
        return runOne(`shrink ${f.key}`, f.idTheme)(steps);
      };
      // Drop single steps, earliest first (what set the stage is usually a step or two right before
      // the break), each candidate on a fresh target; what still shows the rule broken is kept.
      type Best = { steps: FuzzStep[]; outcome: Outcome; obs: Observation };
      const greedy = async (from: Best): Promise<Best> => {
        let best = from;
        for (let j = 0; j < best.steps.length - 1 && timeLeft(); ) {
          const candidate = [...best.steps.slice(0, j), ...best.steps.slice(j + 1)];
          const r = await run(candidate);
          const o = r.observations.find((x) => x.key === f.key);
          if (o) best = { steps: candidate.slice(0, o.step + 1), outcome: r, obs: o };
          else j++;
        }
        return best;
      };
      const firstObs = entry.first.result.observations.find((o) => o.key === f.key)!;
      // First the cheap pass on the generated sequence (the fewest steps, soon); then, with what is
      // left of the budget, fast-check's own shrinking from the seed and path (it simplifies the steps
      // themselves: a long string towards the shortest that still breaks it) and the pass again.
      let best = await greedy({ steps: entry.first.value.slice(0, firstObs.step + 1), outcome: entry.first.result, obs: firstObs });
      // Nothing re-ran yet (a one-step finding): confirm it on a fresh target once, before fast-check's
      // shrinking spends the budget on candidates (each may wait out a timeout).
      let rerunMissed = false;
      if (best.outcome === entry.first.result && timeLeft()) {
        const r = await run(best.steps);
        const o = r.observations.find((x) => x.key === f.key);
        if (o) best = { steps: best.steps.slice(0, o.step + 1), outcome: r, obs: o };
        rerunMissed = o === undefined;
      }
      let path = f.path;
      let shrinks = 0;
      let budgetReached = false;
      if (timeLeft()) {
        popts.maxShrinkEvaluations = Math.max(1, maxEvaluations - evaluations);
        popts.shrinkBudgetMs = Math.max(0, perFinding - (Date.now() - shrinkStart));
        const shrunk = await shrinkFailure(arb, popts, [entry.first], run, holds);
        const o = shrunk?.result.observations.find((x) => x.key === f.key);
        if (shrunk && o) {
          const viaFastCheck = await greedy({ steps: shrunk.value.slice(0, o.step + 1), outcome: shrunk.result, obs: o });
          shrinks = shrunk.shrinks;
          budgetReached = shrunk.budgetReached;
          // fast-check hands back the generated case itself when no candidate showed it: that one was
          // never re-run, so it does not replace a confirmed sequence.
          if (viaFastCheck.outcome !== entry.first.result && viaFastCheck.steps.length <= best.steps.length) {
            best = viaFastCheck;
            path = shrunk.path;
          }
        }
      }
      if (best.outcome === entry.first.result) {
        f.shrinkNote = stop.signal.aborted ? `not shrunk: the run ${stopReason()}` : rerunMissed ? 'not shrunk: it did not show again on a fresh target (the generated sequence is kept)' : 'not shrunk: the time left for shrinking ran out before it was re-run (the generated sequence is kept)';
        f.reproduced = stop.signal.aborted;
      } else {
        Object.assign(f, {
          steps: best.steps,
          sent: best.outcome.records.slice(0, best.obs.step + 1).map((r) => r.sent ?? null),
          message: best.obs.message,
          evidence: best.obs.evidence,
          path,
          shrinks,
          shrinkBudgetReached: budgetReached || evaluations >= maxEvaluations || stop.signal.aborted,
          reproduced: true,
          shrunk: true,
        });
        if (stop.signal.aborted) f.shrinkNote = `shrinking cut short: the run ${stopReason()}`;
      }
      f.repro = reproOf(f) ?? f.repro;
      opts.onEvent?.({ type: 'finding', finding: { ...f } });
    }
    return { target, era: d.era, peer: d.peer, profile, seed: opts.seed, runs: done, steps, startFailures, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), findings, notes, recording, stopped: stop.signal.aborted ? stopReason() : undefined };
  } finally {
    if (endTimer) clearTimeout(endTimer);
    opts.signal?.removeEventListener('abort', onAbort);
    sandbox?.dispose();
  }
}

/** The order findings are shrunk in: per check, its finding with the fewest steps (the first found
 *  among equals), checks in the order first found; then every other finding the same way. */
export function shrinkOrder<F extends { check: string; steps: unknown[] }>(findings: F[]): F[] {
  const rank = (f: F) => findings.findIndex((g) => g.check === f.check);
  const byCheck = [...findings].sort((a, b) => rank(a) - rank(b) || a.steps.length - b.steps.length);
  const firsts = byCheck.filter((f, i) => i === 0 || byCheck[i - 1].check !== f.check);
  return [...firsts, ...byCheck.filter((f) => !firsts.includes(f))];
}

/** The minimal sequence of a finding, one line per step. */
export function describeSequence(steps: FuzzStep[]): string[] {
  return steps.map((s, i) => `${i + 1}. ${describeFuzzStep(s)}`);
}

