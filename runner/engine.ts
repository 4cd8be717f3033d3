import { messages } from '../arbitraries/messages.js';
import { appliesTo, checkInfo, verdictOf, type CheckInfo, type JudgeContext, type Verdict } from '../suites/check.js';
import { areaOf, RUN_CHECKS, SERVER_SCENARIOS, START_ORDER } from '../suites/catalogue.js';
import type { RawTarget, RunOptions, Scenario, ScenarioContext } from '../suites/scenario.js';
import { HttpTransport, type HttpTarget } from './http-transport.js';
import { Recorder } from './recorder.js';
import { HandshakeError, openSession, type Exchange, type Session } from './session.js';
import { StdioTransport, type StdioTarget } from './stdio-transport.js';
import { TargetStartError, type Transport, type TransportFactory } from './transport.js';
import { matchesGlobs } from './globs.js';

export type TargetSpec = ({ kind: 'stdio' } & StdioTarget) | ({ kind: 'http' } & HttpTarget);

export interface EngineOptions extends RunOptions {
  specVersion: 'auto' | '2026-07-28' | '2025-11-25' | '2025-06-18';
  only?: string[];
  skip?: string[];
  /** Overall budget for the whole run; scenarios not started by then are reported as not run. */
  deadlineMs: number;
  /** Scenarios run at once (each on its own session/process). Default 4. */
  concurrency?: number;
  /** The scenarios to run; default every server scenario (tests inject their own). */
  scenarios?: Scenario[];
  onEvent?: (e: RunEvent) => void;
}

export interface CheckResult extends CheckInfo, Verdict {
  area: string;
  scenario: string;
}

export type ScenarioStatus = 'judged' | 'no-judgement' | 'not-applicable' | 'aborted' | 'not-run';

export interface ScenarioResult {
  id: string;
  title: string;
  status: ScenarioStatus;
  durationMs: number;
  message?: string;
}

export interface Finding {
  kind: 'crash' | 'hang' | 'harness' | 'note';
  message: string;
  scenario?: string;
  data?: Record<string, unknown>;
}

export interface RunResult {
  target: TargetSpec;
  era: { era: 'legacy' | 'modern'; version: string; detected: boolean; reason: string };
  server: { info?: Record<string, unknown>; capabilities: Record<string, unknown>; instructions?: string };
  scenarios: ScenarioResult[];
  checks: CheckResult[];
  findings: Finding[];
  startedAt: string;
  durationMs: number;
  recording: Recorder;
}

export type RunEvent =
  | { type: 'run-start'; target: TargetSpec; era: RunResult['era']; server: RunResult['server'] }
  | { type: 'scenario-start'; id: string; title: string }
  | { type: 'check'; result: CheckResult }
  | { type: 'scenario-end'; result: ScenarioResult }
  | { type: 'finding'; finding: Finding };

export function transportFactory(target: TargetSpec): TransportFactory {
  return (recorder) => {
    // A pretty-printed message is read anyway (stdio.newline-framing still fails on the note), so one
    // framing mistake is reported once instead of as a cascade of timeouts.
    if (target.kind === 'stdio') return new StdioTransport({ command: target.command, args: target.args, cwd: target.cwd, env: target.env }, recorder, { acceptMultiLine: true });
    return new HttpTransport({ url: target.url, headers: target.headers }, recorder);
  };
}

/** The closest version mcpspec judges by, for a negotiated version it does not know (e.g. 2025-03-26). */
function judgedVersion(v: string): '2026-07-28' | '2025-11-25' | '2025-06-18' {
  if (v === '2026-07-28' || v === '2025-11-25' || v === '2025-06-18') return v;
  return v > '2026' ? '2026-07-28' : '2025-06-18';
}

/**
 * Run the server suite against one target: detect or fix the era, run every applicable scenario on a
 * fresh session (a fresh process on stdio), judge its checks, then judge the run-wide checks.
 */
export async function runServerSuite(target: TargetSpec, opts: EngineOptions): Promise<RunResult> {
  const started = Date.now();
  const deadline = started + opts.deadlineMs;
  const recorder = new Recorder();
  const factory = transportFactory(target);
  const exchanges: Exchange[] = [];
  const deliberate = new WeakSet<object>();
  const findings: Finding[] = [];
  const emit = (e: RunEvent) => opts.onEvent?.(e);
  const finding = (f: Finding) => {
    findings.push(f);
    emit({ type: 'finding', finding: f });
  };

  // The first session fixes the era and version for the run (TargetStartError/HandshakeError propagate).
  const first = await openSession(factory, { specVersion: opts.specVersion, timeoutMs: opts.timeoutMs, recorder });
  exchanges.push(first.handshake);
  const version = judgedVersion(first.version);
  const era: RunResult['era'] = {
    era: first.era,
    version: first.version,
    detected: opts.specVersion === 'auto',
    reason: first.detection?.reason ?? `--spec-version ${opts.specVersion}`,
  };
  if (version !== first.version) finding({ kind: 'note', message: `the server negotiated ${first.version}; mcpspec judges it by the ${version} rules` });
  const server: RunResult['server'] = { info: first.serverInfo, capabilities: first.capabilities, instructions: first.instructions };
  await first.close();
  const transportKind = target.kind;
  emit({ type: 'run-start', target, era, server });

  const selected = (c: CheckInfo) => appliesTo(c, version, transportKind) && matchesGlobs(c.id, opts.only, opts.skip);
  const ctxFor: JudgeContext = { era: era.era, version, transport: transportKind, capabilities: server.capabilities };
  const checks: CheckResult[] = [];
  const scenarios: ScenarioResult[] = [];

  const record = (s: Scenario, info: CheckInfo, verdict: Verdict) => {
    const r: CheckResult = { ...checkInfo(info), ...verdict, area: areaOf(info.id), scenario: s.id };
    checks.push(r);
    emit({ type: 'check', result: r });
  };

  const runOne = async (s: Scenario): Promise<void> => {
    const applicable = s.checks.filter(selected);
    const t0 = Date.now();
    if (applicable.length === 0 || !s.versions.includes(version) || (s.transports && !s.transports.includes(transportKind))) return;
    if (Date.now() > deadline) {
      for (const c of applicable) record(s, c, { status: 'untestable', message: 'not run: the overall deadline passed', evidence: [] });
      scenarios.push({ id: s.id, title: s.title, status: 'not-run', durationMs: 0, message: 'overall deadline passed' });
      return;
    }
    emit({ type: 'scenario-start', id: s.id, title: s.title });
    const opened: { close(): Promise<unknown> }[] = [];
    let outcome: { observed?: unknown; aborted?: string; harness?: string } = {};
    // Each scenario keeps its own log (scenarios run concurrently); the run log gets tagged copies.
    const scenarioRecorder = new Recorder({ parent: recorder, source: s.id });
    try {
      const session = await openSession(factory, { specVersion: version, timeoutMs: opts.timeoutMs, recorder: scenarioRecorder, skipInitialized: s.skipInitialized });
      opened.push(session);
      exchanges.push(session.handshake);
      const ctx = scenarioContext(session, { factory, recorder: scenarioRecorder, opts, version, exchanges, deliberate, opened });
      const remaining = Math.max(1000, deadline - Date.now());
      outcome = { observed: await withDeadline(s.run(ctx), remaining, `scenario ${s.id} exceeded the overall deadline`) };
    } catch (e) {
      if (e instanceof HandshakeError || e instanceof TargetStartError) {
        outcome = { aborted: `the target could not be started or initialized again: ${e.message}` };
        finding({ kind: 'crash', scenario: s.id, message: outcome.aborted!, data: e instanceof HandshakeError ? { stderrTail: e.stderrTail?.slice(-2000) } : {} });
      } else if (e instanceof DeadlineError) {
        outcome = { aborted: e.message };
        finding({ kind: 'hang', scenario: s.id, message: e.message, data: { lastSent: lastSent(scenarioRecorder) } });
      } else {
        outcome = { harness: `mcpspec failed inside scenario ${s.id}: ${e instanceof Error ? e.stack ?? e.message : String(e)}` };
        finding({ kind: 'harness', scenario: s.id, message: outcome.harness! });
      }
    } finally {
      await Promise.all(opened.map((o) => o.close().catch(() => undefined)));
    }
    for (const c of applicable) {
      if (outcome.harness) record(s, c, { status: 'error', message: outcome.harness.split('\n')[0], evidence: [] });
      else if (outcome.aborted) record(s, c, { status: 'untestable', message: `scenario aborted: ${outcome.aborted}`, evidence: [] });
      else record(s, c, judgeSafely(c, outcome.observed, ctxFor));
    }
    const mine = checks.filter((r) => r.scenario === s.id);
    const judged = mine.some((r) => r.status === 'pass' || r.status === 'fail' || r.status === 'warn');
    const result: ScenarioResult = {
      id: s.id, title: s.title, durationMs: Date.now() - t0,
      status: outcome.aborted || outcome.harness ? 'aborted' : judged ? 'judged' : 'no-judgement',
      message: outcome.aborted ?? outcome.harness?.split('\n')[0],
    };
    scenarios.push(result);
    emit({ type: 'scenario-end', result });
  };

  // Scenarios are independent (each has its own session and, on stdio, its own process): run a few at once.
  const startRank = (s: Scenario) => (START_ORDER.includes(s.id) ? START_ORDER.indexOf(s.id) : START_ORDER.length);
  const all = opts.scenarios ?? SERVER_SCENARIOS;
  const queue = [...all].sort((a, b) => startRank(a) - startRank(b));
  const workers = Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, async () => {
    for (let s = queue.shift(); s; s = queue.shift()) await runOne(s);
  });
  await Promise.all(workers);
  const order = (id: string) => all.findIndex((x) => x.id === id);
  scenarios.sort((a, b) => order(a.id) - order(b.id));
  checks.sort((a, b) => order(a.scenario) - order(b.scenario));

  // Crashes seen anywhere (a scenario may have restarted the target and gone on).
  for (const e of recorder.events()) {
    if (e.kind === 'process-exit' && e.data && e.data.expected !== true && (e.data.exitCode !== 0 || e.data.signal)) {
      const last = typeof e.data.lastSent === 'string' ? `; last message sent: ${e.data.lastSent.slice(0, 200)}` : '';
      finding({ kind: 'crash', scenario: e.source, message: `the target exited with code ${String(e.data.exitCode)}${e.data.signal ? ` (signal ${String(e.data.signal)})` : ''}${last}`, data: e.data });
    }
  }

  const runObs = { exchanges, events: recorder.events(), version, deliberate: (ex: Exchange) => deliberate.has(ex) };
  const runScenario = { id: 'run' } as Scenario;
  for (const c of RUN_CHECKS.filter(selected)) record(runScenario, c, judgeSafely(c, runObs, ctxFor));

  for (const problem of outboundProblems(exchanges, deliberate, version)) finding({ kind: 'harness', message: problem });

  return { target, era, server, scenarios, checks, findings, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, recording: recorder };
}

function judgeSafely<O>(c: CheckInfo & { judge(o: O, ctx: JudgeContext): import('../suites/check.js').Judgement }, observed: O, ctx: JudgeContext): Verdict {
  try {
    return verdictOf(c, c.judge(observed, ctx));
  } catch (e) {
    return { status: 'error', message: `mcpspec failed while judging: ${(e as Error).message}`, evidence: [] };
  }
}

class DeadlineError extends Error {}

function withDeadline<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError(message)), ms);
    }),
  ]);
}

function lastSent(recorder: Recorder): string | undefined {
  const out = recorder.events().filter((e) => e.dir === 'out');
  return out[out.length - 1]?.raw.slice(0, 2000);
}

interface ContextDeps {
  factory: TransportFactory;
  recorder: Recorder;
  opts: EngineOptions;
  version: string;
  exchanges: Exchange[];
  deliberate: WeakSet<object>;
  opened: { close(): Promise<unknown> }[];
}

/** Wrap a session so every exchange is kept for the run-wide checks. */
function instrument(session: Session, exchanges: Exchange[]): Session {
  const keep = async (p: Promise<Exchange>) => {
    const ex = await p;
    exchanges.push(ex);
    return ex;
  };
  return new Proxy(session, {
    get(target, prop, receiver) {
      if (prop === 'request' || prop === 'notify' || prop === 'raw') {
        const fn = Reflect.get(target, prop, receiver) as (...a: unknown[]) => Promise<Exchange>;
        return (...args: unknown[]) => keep(fn.apply(target, args));
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function scenarioContext(session: Session, deps: ContextDeps): ScenarioContext {
  const ctx: ScenarioContext = {
    session: instrument(session, deps.exchanges),
    version: deps.version as ScenarioContext['version'],
    options: deps.opts,
    async reopen() {
      await ctx.session.close().catch(() => undefined);
      const fresh = await openSession(deps.factory, { specVersion: deps.version as never, timeoutMs: deps.opts.timeoutMs, recorder: deps.recorder });
      deps.opened.push(fresh);
      deps.exchanges.push(fresh.handshake);
      ctx.session = instrument(fresh, deps.exchanges);
      return ctx.session;
    },
    async openRaw(): Promise<RawTarget> {
      const transport: Transport = deps.factory(deps.recorder);
      deps.opened.push(transport);
      await transport.open();
      return {
        kind: transport.kind,
        async send(body, o) {
          const startedAt = Date.now();
          const from = deps.recorder.lastSeq();
          const r = await transport.exchange(body, { ...o, timeoutMs: o.timeoutMs ?? deps.opts.timeoutMs });
          const obj = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
          const ex: Exchange = {
            ...r, request: body, startedAt, seqRange: { from, to: deps.recorder.lastSeq() },
            id: obj.id as Exchange['id'], method: typeof obj.method === 'string' ? obj.method : undefined,
          };
          deps.exchanges.push(ex);
          deps.deliberate.add(ex);
          return ex;
        },
      };
    },
    async deliberate(p) {
      const ex = await p;
      deps.deliberate.add(ex);
      return ex;
    },
  };
  return ctx;
}

/**
 * mcpspec's own requests, unless deliberately malformed, must be valid for the version in use: if
 * one is not, the verdicts built on it would blame the target for mcpspec's mistake.
 */
function outboundProblems(exchanges: Exchange[], deliberate: WeakSet<object>, version: string): string[] {
  const key = version === '2026-07-28' ? '2026-07-28' : version;
  const index = messages(key).index;
  const problems: string[] = [];
  for (const ex of exchanges) {
    if (deliberate.has(ex) || !ex.method || typeof ex.request !== 'object' || ex.request === null) continue;
    const info = index.get(ex.method);
    if (!info || info.embedded) continue;
    const m = messages(key).of(info.definition);
    if (!m.validate(ex.request)) problems.push(`mcpspec sent an invalid ${ex.method} (${info.definition}): ${JSON.stringify(ex.request).slice(0, 300)}`);
  }
  return [...new Set(problems)];
}
