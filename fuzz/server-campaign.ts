// Fuzz campaigns against a server: discover what it declares, generate sequences of steps as a
// fast-check property, run each sequence on a fresh target (stdio: a new process; HTTP: a new
// session), judge every step, de-duplicate findings by oracle + method, shrink each to a minimal
// sequence (fast-check replaying from its seed and path) and save it as a repro file.

import { setMaxListeners } from 'node:events';
import { evaluateCases, shrinkFailure, type Evaluated, type PropertyOptions } from '../arbitraries/property.js';
import { declaredMethods, type IdStyle } from '../arbitraries/sequences.js';
import { describeFuzzStep, fuzzSequenceArbitrary, idTheme, type FuzzProfile, type FuzzStep } from '../arbitraries/fuzz-sequences.js';
import { isModernVersion, judgedVersion, type SpecVersion, type VersionChoice } from '../protocol/versions.js';
import type { EraInfo, PeerInfo, TargetInfo } from '../results/run.js';
import { listAll, resultOf } from '../suites/exchange.js';
import { mayCall, schemaProblem, type Tool } from '../suites/scenarios/tools.js';
import { listedPrompts, methodOf, ORACLES, runSequence, targetFactory, type ListedPrompt, targetInfo, type Observation, type OracleId, type SequenceContext, type SequenceOutcome } from './run-sequence.js';
import { ParamHeaderBook } from '../runner/param-header-book.js';
import { Recorder } from '../runner/recorder.js';
import { writeRepro, type Repro } from './replay.js';
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
  /** Stop starting new sequences after this long. */
  timeMs?: number;
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
}

export type FuzzEvent =
  | { type: 'fuzz-start'; target: TargetInfo; era: EraInfo; seed: number; methods: string[]; tools: string[]; notes: string[] }
  | { type: 'sequence'; index: number; steps: number; observations: { oracle: OracleId; method: string; step: number }[]; startFailure?: string; durationMs: number }
  | { type: 'finding'; finding: FuzzFinding };

const MAX_TOOLS = 25;
const CHUNK = 10;

interface Discovery {
  era: EraInfo;
  peer: PeerInfo;
  version: SpecVersion;
  tools: Tool[];
  resources: string[];
  prompts: ListedPrompt[];
  templates: string[];
}

async function discover(factory: TransportFactory, opts: FuzzOptions, recorder: Recorder): Promise<Discovery> {
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
function stepAllowed(s: FuzzStep, opts: FuzzOptions): boolean {
  if (s.kind === 'joined') return s.requests.every((q) => allowed(q.method, opts));
  if (s.kind === 'split' || s.kind === 'headers' || s.kind === 'sse') return s.method === 'tools/call' ? allowed('tools/call', opts) : allowed(s.method, opts);
  return s.kind === 'call' || allowed(methodOf(s), opts);
}

interface Chunk {
  seed: number;
  numRuns: number;
  cases: Evaluated<FuzzStep[], SequenceOutcome & { idTheme: IdStyle }>[];
}

/** Run a fuzz campaign against a server. Throws TargetStartError/HandshakeError when the target cannot be tested at all. */
export async function fuzz(spec: ServerTarget, opts: FuzzOptions): Promise<FuzzResult> {
  const startedAt = new Date();
  if (opts.start && spec.kind !== 'http') throw new Error('a start command goes with an HTTP target (--url); a stdio target is started anyway');
  const sandbox = spec.kind === 'stdio' ? makeSandbox(opts.env, spec.cwd) : opts.start ? makeSandbox(opts.env) : undefined;
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Learnt at discovery, sent by every sequence, and kept in the repros for their replays.
    const paramHeaders = new ParamHeaderBook();
    const factory = targetFactory(spec, sandbox, opts.start, opts.timeoutMs, paramHeaders);
    const recording = new Recorder();
    const d = await discover(factory, opts, recording);
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
    let index = 0;
    const ctx = (source: string, theme: IdStyle): SequenceContext => ({ factory, version: d.version, timeoutMs: opts.timeoutMs, resources: d.resources, prompts: d.prompts, templates: d.templates, parent: recording, source, signal: stop.signal, idTheme: theme });
    const runOne = (source: string, theme: IdStyle) => async (steps: FuzzStep[]) => ({ ...(await runSequence(steps, ctx(source, theme))), idTheme: theme });
    const totalRuns = opts.runs ?? (opts.timeMs !== undefined ? Number.POSITIVE_INFINITY : 50);
    const concurrency = oneAtATime ? 1 : (opts.concurrency ?? 2);
    const chunks: Chunk[] = [];
    let done = 0;
    let steps = 0;
    let startFailures = 0;
    const deadline = opts.timeMs !== undefined ? Date.now() + opts.timeMs : Number.POSITIVE_INFINITY;
    // Chunk k uses seed + k: its cases replay from (seed + k, path) alone.
    for (let k = 0; done < totalRuns && Date.now() < deadline && !stop.signal.aborted; k++) {
      const numRuns = Math.min(CHUNK, totalRuns - done);
      const popts: PropertyOptions = { seed: opts.seed + k, numRuns, concurrency };
      const cases = await evaluateCases(arb, popts, async (seq) => {
        const i = index++;
        // Id themes cycle over the sequences of the run: every unusual id style shows up early.
        const theme = idTheme(i);
        if (Date.now() >= deadline || stop.signal.aborted) return { records: [], observations: [], durationMs: 0, startFailure: 'not run: the time budget was spent', idTheme: theme };
        const out = await runOne(`seq-${i}`, theme)(seq);
        opts.onEvent?.({ type: 'sequence', index: i, steps: out.records.length, observations: out.observations.map((o) => ({ oracle: o.oracle, method: o.method, step: o.step })), startFailure: out.startFailure, durationMs: out.durationMs });
        return out;
      });
      const ran = cases.filter((c) => c.result.startFailure !== 'not run: the time budget was spent');
      done += ran.length;
      steps += ran.reduce((n, c) => n + c.result.records.length, 0);
      const failed = ran.filter((c) => c.result.startFailure);
      if (failed.length && startFailures === 0) notes.push(`a fresh target could not be started for some sequences (not judged); the first: ${failed[0].result.startFailure!.split('\n')[0].slice(0, 300)}`);
      startFailures += failed.length;
      chunks.push({ seed: popts.seed, numRuns, cases });
      if (ran.length < cases.length) break;
    }

    // De-duplicate: one finding per oracle + method, counted over the generated sequences.
    const firsts = new Map<string, { chunk: Chunk; obs: Observation; count: number; idTheme: IdStyle }>();
    for (const chunk of chunks) {
      for (const c of chunk.cases) {
        for (const key of new Set(c.result.observations.map((o) => o.key))) {
          const f = firsts.get(key);
          if (f) f.count++;
          else firsts.set(key, { chunk, obs: c.result.observations.find((o) => o.key === key)!, count: 1, idTheme: c.result.idTheme });
        }
      }
    }
    const findings: FuzzFinding[] = [];
    for (const [key, first] of firsts) {
      if (stop.signal.aborted) break;
      const popts: PropertyOptions = { seed: first.chunk.seed, numRuns: first.chunk.numRuns, concurrency, maxShrinkEvaluations: opts.maxShrinkEvaluations ?? 40, shrinkBudgetMs: Math.max(60_000, 20 * opts.timeoutMs) };
      // A hang costs a timeout per shrink level: a candidate still running after a quarter of the
      // timeout is guessed to hang and its own candidates start beside it, within --concurrency.
      if (concurrency > 1) {
        popts.speculateAfterMs = Math.min(2_500, opts.timeoutMs / 4);
        popts.maxSpeculative = concurrency - 1;
      }
      // Every shrink candidate descends from the first failing sequence: it runs with that one's id theme.
      const failing = first.chunk.cases.filter((c) => c.result.idTheme === first.idTheme);
      const shrunk = await shrinkFailure(arb, popts, failing, runOne(`shrink ${key}`, first.idTheme), (r) => r.observations.some((o) => o.key === key));
      let obs = shrunk?.result.observations.find((o) => o.key === key) ?? first.obs;
      let value = shrunk?.value ?? [];
      let outcome = shrunk?.result;
      // fast-check shrinks motifs (a list and the step after it) as a unit: a last greedy pass drops
      // single steps, each candidate on a fresh target, within what is left of the shrink budget.
      if (shrunk && outcome) {
        let left = Math.max(0, (opts.maxShrinkEvaluations ?? 40) - shrunk.shrinks);
        let cut = value.slice(0, obs.step + 1);
        for (let j = cut.length - 2; j >= 0 && left > 0 && !stop.signal.aborted; j--) {
          left--;
          const candidate = [...cut.slice(0, j), ...cut.slice(j + 1)];
          const r = await runOne(`shrink ${key}`, first.idTheme)(candidate);
          const o = r.observations.find((x) => x.key === key);
          if (o) {
            cut = candidate.slice(0, o.step + 1);
            value = candidate;
            outcome = r;
            obs = o;
            j = Math.min(j, cut.length - 1);
          }
        }
      }
      // The steps after the one that broke the rule cannot have caused it: cut them.
      const minimal = value.slice(0, obs.step + 1);
      const f: FuzzFinding = {
        key,
        oracle: obs.oracle,
        level: ORACLES[obs.oracle].level,
        method: obs.method,
        message: obs.message,
        count: first.count,
        steps: minimal,
        idTheme: first.idTheme,
        sent: (outcome?.records ?? []).slice(0, obs.step + 1).map((r) => r.sent ?? null),
        evidence: obs.evidence,
        seed: popts.seed,
        path: shrunk?.path ?? '',
        shrinks: shrunk?.shrinks ?? 0,
        shrinkBudgetReached: shrunk?.budgetReached ?? false,
        reproduced: shrunk !== undefined && shrunk.result.observations.some((o) => o.key === key),
      };
      if (opts.reproDir) {
        const repro: Repro = {
          reproVersion: 1,
          tool: { name: 'mcpspec', version: opts.toolVersion ?? 'unknown' },
          target,
          specVersion: d.version,
          era: d.era.era,
          seed: f.seed,
          path: f.path,
          finding: { key, oracle: f.oracle, level: f.level, method: f.method, message: f.message, title: ORACLES[f.oracle].title },
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
        f.repro = writeRepro(opts.reproDir, repro);
      }
      findings.push(f);
      opts.onEvent?.({ type: 'finding', finding: f });
    }
    return { target, era: d.era, peer: d.peer, profile, seed: opts.seed, runs: done, steps, startFailures, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), findings, notes, recording };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    sandbox?.dispose();
  }
}

/** The minimal sequence of a finding, one line per step. */
export function describeSequence(steps: FuzzStep[]): string[] {
  return steps.map((s, i) => `${i + 1}. ${describeFuzzStep(s)}`);
}

