// The engine, the same for both roles: select checks, gate them once on their records, run their
// scenarios (a few at once, each on its own connection), judge, then judge the oracles over every
// message of the run. The role-specific part (how to reach the peer) is a Driver.

import { setMaxListeners } from 'node:events';
import { type Role, type TransportKind } from '../results/check-record.js';
import { NO_SESSION, TRAFFIC_ONLY, type CheckResult, type EraInfo, type Finding, type PeerInfo, type RunEvent, type RunResult, type ScenarioResult, type TargetInfo } from '../results/run.js';
import type { Verdict } from '../results/verdict.js';
import type { Recording } from '../results/wire.js';
import { CHECKS } from '../suites/catalogue.js';
import { belongsTo, checkRecord, skipReason, verdictOf, type Check, type JudgeContext } from '../suites/kit/check.js';
import type { RunObservations } from '../suites/kit/observations.js';
import type { Scenario } from '../suites/kit/scenario.js';
import { areaOf } from '../results/check-record.js';
import { matchesGlobs } from './globs.js';
import { loadSchema } from '../protocol/schema-registry.js';
import type { SpecVersion } from '../protocol/versions.js';

/**
 * What a scenario run came to: its observations, or why there are none: the run ended it (aborted),
 * mcpspec failed (harness), or the target declined it, so there is nothing to judge (untestable).
 */
export type ScenarioOutcome = { observed: unknown } | { aborted: string } | { harness: string } | { untestable: string };

/** How the engine reaches the peer under test; one per role. */
export interface Driver {
  readonly role: Role;
  readonly transport: TransportKind;
  readonly target: TargetInfo;
  /** Reach the peer once: era, and what it declares. Throws when it cannot be started or reached. (The server driver may be started before the engine runs; the engine's call then joins that start.) */
  start(signal: AbortSignal): Promise<{ era: EraInfo; peer: PeerInfo }>;
  /**
   * Once started: why no session could be had (a server that requires authorization mcpspec has
   * no credentials for), so only sessionless scenarios run; undefined when the peer was reached.
   */
  limited?(): string | undefined;
  /**
   * The peer declares anew in each scenario (a client harness declares what the scenario it is named
   * asks for): checks are not gated on what it declared at start; each judges what its scenario saw.
   */
  readonly declaresPerScenario?: boolean;
  runScenario(s: Scenario, signal: AbortSignal): Promise<ScenarioOutcome>;
  /** Once every scenario has ended: end what they shared (before the oracles look at the run); `signal` is the run's end. */
  afterScenarios?(signal: AbortSignal): Promise<void>;
  /**
   * Called once every scenario has started, while the last ones still wait on the peer: what the end
   * of the run needs (modules, validators) may be made ready now instead of after the longest wait.
   */
  warmUp?(): Promise<void>;
  observations(): RunObservations;
  /** Findings about the target seen while running (crashes, hangs, ...), and mcpspec's own problems. */
  findings(): Finding[];
  recording(): Recording;
  close(): Promise<void>;
}

/** Which checks run, and which scenarios run for them (--only, --skip, --shard; tests inject their own checks). */
export interface SelectionOptions {
  only?: string[];
  skip?: string[];
  /**
   * Run one shard of the scenarios (index 1..count): the catalogue's scenarios are dealt round-robin
   * in catalogue order, so every shard gets the same split whatever the target; oracles run in every
   * shard over that shard's traffic.
   */
  shard?: { index: number; count: number };
  /** The checks to run; default the whole catalogue (tests inject their own). */
  checks?: Check[];
  /**
   * Scenarios run for their traffic alone (for oracles) when no selected check is bound to them.
   * Default: every scenario with a check that --skip leaves in and the peer's declarations allow, so
   * `--only wire.schema` judges a whole run's messages, not the handshake's.
   */
  traffic?: Scenario[];
}

/** When the whole run ends, and how much of it runs at once (--deadline, --concurrency, an interrupt). */
export interface ScheduleOptions {
  /** The whole run ends by then; scenarios still waiting are cut short and their checks say so. */
  deadlineMs: number;
  /** Scenarios run at once (each on its own connection). Default 4. */
  concurrency?: number;
  /** An outside interrupt (SIGINT): the run stops promptly and reports what it has. */
  signal?: AbortSignal;
}

/** Who hears of the run while it goes (--json events, the progress line). */
export interface ReportingOptions {
  onEvent?: (e: RunEvent) => void;
  /** Progress: scenarios finished out of those planned (called once the plan is made, then per scenario). */
  onProgress?: (p: { done: number; total: number }) => void;
}

/** What the engine takes: the options the driver does not (it has the target, timing, safety and generation). */
export interface EngineOptions {
  selection?: SelectionOptions;
  schedule: ScheduleOptions;
  reporting?: ReportingOptions;
  /** The run's seed, reported with it (run-start, the result); the driver's generators were given it. */
  seed: number;
}

/** The scenario ids of one shard (index 1..count), dealt round-robin in catalogue order. */
export function shardScenarioIds(checks: Check[], shard: { index: number; count: number }): Set<string> {
  const ids = [...new Set(checks.map((c) => c.scenario?.id).filter((id): id is string => id !== undefined))];
  return new Set(ids.filter((_, i) => i % shard.count === shard.index - 1));
}

/** How long after the era is known the validators are loaded: the first scenarios' requests are out by then. */
const WARM_AFTER_MS = 20;

/**
 * Load the judged version's validators (~40 ms, once) while the peer works on the first scenarios'
 * requests, instead of when the oracles and judges first need them, after the last scenario.
 */
function warmValidators(version: SpecVersion): void {
  const timer = setTimeout(() => {
    try {
      const doc = loadSchema(version);
      const defs = doc.definitions();
      doc.validator(defs.includes('JSONRPCMessage') ? 'JSONRPCMessage' : defs[0]);
    } catch {
      // nothing lost: whoever needs a validator loads it then, and reports what goes wrong
    }
  }, WARM_AFTER_MS);
  timer.unref();
}

/** Time kept back from the deadline to judge, reap and report. */
const WIND_DOWN_MS = 1500;

export async function runSuite(driver: Driver, opts: EngineOptions): Promise<RunResult> {
  const selection = opts.selection ?? {};
  const schedule = opts.schedule;
  const reporting = opts.reporting ?? {};
  const seed = opts.seed;
  const started = Date.now();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // every outstanding wait listens for the run's end
  const onOutside = () => stop.abort(new Error('interrupted'));
  schedule.signal?.addEventListener('abort', onOutside, { once: true });
  const deadlineTimer = setTimeout(() => stop.abort(new Error('deadline')), Math.max(0, schedule.deadlineMs - WIND_DOWN_MS));
  const emit = (e: RunEvent) => reporting.onEvent?.(e);
  const findings: Finding[] = [];
  const seenFindings = new Set<Finding>();
  const flushFindings = () => {
    for (const f of driver.findings()) {
      if (seenFindings.has(f)) continue;
      seenFindings.add(f);
      findings.push(f);
      emit({ type: 'finding', finding: f });
    }
  };

  try {
    const { era, peer } = await driver.start(stop.signal);
    warmValidators(era.judgedBy);
    emit({ type: 'run-start', role: driver.role, target: driver.target, era, peer, seed });
    flushFindings();
    const version = era.judgedBy;
    const all = selection.checks ?? CHECKS;
    const selected = all.filter((c) => belongsTo(c, driver.role, version, driver.transport) && matchesGlobs(c.id, selection.only, selection.skip));
    const ctx: JudgeContext = { era: era.era, version, transport: driver.transport, capabilities: peer.capabilities };
    const checks: CheckResult[] = [];
    const scenarios: ScenarioResult[] = [];
    const record = (c: Check, scenario: string, v: Verdict) => {
      const r: CheckResult = { ...checkRecord(c), ...v, area: areaOf(c.id), scenario };
      checks.push(r);
      emit({ type: 'check', result: r });
    };

    // Gating, once, from the records: a check the peer's declarations rule out is a skip with its reason.
    // Without a session (limited), only the checks of sessionless scenarios that need no access can run.
    const limited = driver.limited?.();
    const runsLimited = (sc: Scenario | undefined) => !!sc?.sessionless && !sc.needsAccess;
    const gated = new Map<Check, string>();
    const undeclared = (c: Check) => (driver.declaresPerScenario ? undefined : skipReason(c, peer.capabilities));
    for (const c of selected) {
      const why = limited && !runsLimited(c.scenario) ? NO_SESSION : undeclared(c);
      if (why) gated.set(c, why);
    }
    const plan = new Map<Scenario, Check[]>();
    const inShard = selection.shard ? shardScenarioIds(all, selection.shard) : undefined;
    for (const c of selected) {
      if (!c.scenario) continue;
      if (inShard && !inShard.has(c.scenario.id)) continue;
      if (!c.scenario.versions.includes(version) || (c.scenario.transports && !c.scenario.transports.includes(driver.transport))) continue;
      plan.set(c.scenario, [...(plan.get(c.scenario) ?? []), c]);
    }
    if (selected.some((c) => c.kind === 'oracle')) {
      const wanted = (c: Check) => belongsTo(c, driver.role, version, driver.transport) && matchesGlobs(c.id, undefined, selection.skip) && !undeclared(c) && (!limited || runsLimited(c.scenario));
      const traffic = selection.traffic ?? [...new Set(all.filter((c) => c.scenario && wanted(c)).map((c) => c.scenario!))];
      for (const s of traffic) {
        if (plan.has(s) || (inShard && !inShard.has(s.id)) || (limited && !runsLimited(s))) continue;
        if (s.versions.includes(version) && (!s.transports || s.transports.includes(driver.transport))) plan.set(s, []);
      }
    }

    const runOne = async (s: Scenario, own: Check[]) => {
      const live = own.filter((c) => !gated.has(c));
      for (const c of own.filter((c) => gated.has(c))) record(c, s.id, { status: 'skip', message: gated.get(c)!, evidence: [] });
      if (live.length === 0 && own.length > 0) return;
      const t0 = Date.now();
      if (stop.signal.aborted) {
        for (const c of live) record(c, s.id, { status: 'untestable', message: `not run: ${runEnd(stop.signal)}`, evidence: [] });
        scenarios.push({ id: s.id, title: s.title, status: 'not-run', durationMs: 0, message: runEnd(stop.signal) });
        return;
      }
      emit({ type: 'scenario-start', id: s.id, title: s.title });
      let outcome: ScenarioOutcome;
      try {
        outcome = await driver.runScenario(s, stop.signal);
      } catch (e) {
        outcome = { harness: `mcpspec failed inside scenario ${s.id}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
      }
      flushFindings();
      for (const c of live) {
        if ('harness' in outcome) record(c, s.id, { status: 'error', message: outcome.harness.split('\n')[0], evidence: [] });
        else if ('aborted' in outcome) record(c, s.id, { status: 'untestable', message: `scenario cut short: ${outcome.aborted}`, evidence: [] });
        else if ('untestable' in outcome) record(c, s.id, { status: 'untestable', message: outcome.untestable, evidence: [] });
        else record(c, s.id, judgeSafely(c, outcome.observed, ctx));
      }
      if ('harness' in outcome) {
        const f: Finding = { kind: 'harness', scenario: s.id, message: outcome.harness };
        seenFindings.add(f);
        findings.push(f);
        emit({ type: 'finding', finding: f });
      }
      const mine = checks.filter((r) => r.scenario === s.id);
      const judged = mine.some((r) => r.status === 'pass' || r.status === 'fail' || r.status === 'warn');
      const result: ScenarioResult = {
        id: s.id,
        title: s.title,
        durationMs: Date.now() - t0,
        status: 'observed' in outcome ? (judged ? 'judged' : 'no-judgement') : 'untestable' in outcome ? 'no-judgement' : 'aborted',
      };
      if (own.length === 0) result.message = TRAFFIC_ONLY;
      if ('aborted' in outcome) result.message = outcome.aborted;
      if ('untestable' in outcome) result.message = outcome.untestable;
      if ('harness' in outcome) result.message = outcome.harness.split('\n')[0];
      scenarios.push(result);
      emit({ type: 'scenario-end', result });
    };

    // Long scenarios start first so the rest overlap them (the longest before the other long ones).
    const earliness = (s: { startEarly?: boolean | 'first' }) => (s.startEarly === 'first' ? 2 : s.startEarly ? 1 : 0);
    const queue = [...plan.entries()].sort(([a], [b]) => earliness(b) - earliness(a));
    const total = queue.length;
    let done = 0;
    reporting.onProgress?.({ done, total });
    let warming: Promise<void> | undefined;
    // The 'first' scenarios get the machine to themselves for a moment: the others' start-up work
    // (generators, validators) would otherwise delay the requests that begin the run's longest waits.
    const headStart = queue.some(([s]) => earliness(s) === 2) ? headStartOver(stop.signal) : undefined;
    const workers = Array.from({ length: Math.max(1, schedule.concurrency ?? 4) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (headStart && earliness(next[0]) < 2) await headStart;
        await runOne(next[0], next[1]);
        reporting.onProgress?.({ done: ++done, total });
      }
      // Nothing left to start: the end's work gets ready beside the scenarios still running.
      warming ??= driver.warmUp?.().catch(() => undefined);
    });
    await Promise.all(workers);
    await warming;
    await driver.afterScenarios?.(stop.signal);

    // Oracles: invariants judged over every message of the run.
    const observations = driver.observations();
    for (const c of selected.filter((c) => c.kind === 'oracle')) {
      if (gated.has(c)) record(c, 'run', { status: 'skip', message: gated.get(c)!, evidence: [] });
      else record(c, 'run', judgeSafely(c, observations, ctx));
    }
    flushFindings();

    const order = new Map(all.map((c, i) => [c.id, i]));
    checks.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const scenarioOrder = [...new Set(all.map((c) => c.scenario?.id).filter(Boolean))];
    scenarios.sort((a, b) => scenarioOrder.indexOf(a.id) - scenarioOrder.indexOf(b.id));
    return {
      role: driver.role,
      target: driver.target,
      era,
      peer,
      seed,
      scenarios,
      checks,
      findings,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      recording: driver.recording(),
      ...(limited ? { limited } : {}),
    };
  } finally {
    clearTimeout(deadlineTimer);
    schedule.signal?.removeEventListener('abort', onOutside);
    await driver.close();
  }
}

/** How long the 'first' scenarios run alone: about what one takes to reach its long wait on an idle machine. */
const HEAD_START_MS = 50;

/** Resolves after HEAD_START_MS, or at once when the run ends. */
function headStartOver(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, HEAD_START_MS);
    signal.addEventListener('abort', done, { once: true });
  });
}

function runEnd(signal: AbortSignal): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : '';
  return reason === 'interrupted' ? 'the run was interrupted' : 'the overall deadline passed';
}

function judgeSafely<O>(c: Check<O>, observed: O, ctx: JudgeContext): Verdict {
  try {
    return verdictOf(c, c.judge(observed, ctx));
  } catch (e) {
    return { status: 'error', message: `mcpspec failed while judging: ${(e as Error).message}`, evidence: [] };
  }
}
