// Fuzz campaigns against a client: mcpspec plays the scripted server (suites/client/scripted-server.ts) and
// answers the client's tools/list, prompts/list and resources/list from a generated plan of
// near-valid and odd-but-valid results (arbitraries/client-answers.ts), starting the client afresh
// for every plan. Oracles: the client crashed (a signal or an uncaught exception, not a clean
// error exit), hung (still running at the timeout), or acted on an invalid answer as valid (a
// request it sent after a near-valid answer is itself invalid: it passed the broken data on).
// Findings are de-duplicated (oracle + the method of the answer it broke on), shrunk with
// fast-check (every candidate a fresh client run) and saved as client repro files (`role: 'client'`).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { CLIENT_ANSWER_METHODS, clientAnswerPlanArbitrary, type ClientAnswer } from '../arbitraries/client-answers.js';
import { evaluateCases, shrinkFailure, type Evaluated, type PropertyOptions } from '../arbitraries/property.js';
import { loadSchema } from '../protocol/schema-registry.js';
import { ALL_VERSIONS, isSpecVersion, judgedVersion, type SpecVersion } from '../protocol/versions.js';
import type { EraInfo, TargetInfo } from '../results/run.js';
import type { Evidence } from '../results/verdict.js';
import { schemaProblem } from '../suites/messages/client-checks.js';
import { crashOf, describeExit } from '../suites/kit/client-exit.js';
import type { ClientExit, Received } from '../suites/ports/scripted-server.js';
import { clientScenario } from '../suites/kit/scenario.js';
import { runScript } from '../suites/client/scripted-server.js';
import { ClientDriver, type ClientTarget } from '../runner/client-driver.js';
import { ruleOf } from './oracles.js';
import type { EnvOptions } from '../runner/target-env.js';

export type ClientOracleId = 'crash' | 'hang' | 'acted-on-invalid';

export const CLIENT_ORACLES: Record<ClientOracleId, { level: 'MUST' | 'SHOULD'; title: string }> = {
  crash: { level: 'MUST', title: 'the client neither dies of a signal nor of an uncaught exception when served near-valid or odd answers' },
  hang: { level: 'MUST', title: 'the client ends its work within the timeout when served near-valid or odd answers' },
  'acted-on-invalid': { level: 'MUST', title: 'the client does not pass data from an invalid answer on in an invalid request (JR-04, EX-05)' },
};

export interface ClientObservation {
  oracle: ClientOracleId;
  /** The method of the served answer it broke on (the last one served before the end, for crash and hang). */
  method: string;
  key: string;
  message: string;
  evidence: { exit?: Partial<ClientExit>; served?: string[]; request?: unknown; problem?: Evidence };
}

export interface ClientRunOutcome {
  exit?: ClientExit;
  /** The answers of the plan that were served, in order (the client asked for them). */
  served: ClientAnswer[];
  observations: ClientObservation[];
  /** The run ended before the client did (interrupted). */
  aborted?: string;
}

export interface ClientFuzzOptions {
  specVersion: SpecVersion | 'auto';
  seed: number;
  /** Plans to run (default 20 without `timeMs`, unbounded with it). */
  runs?: number;
  timeMs?: number;
  /** How long one client run may take before it counts as a hang. */
  timeoutMs: number;
  /** Most answers in one plan (default 4). */
  maxLength?: number;
  /** Client runs at once (default 2). */
  concurrency?: number;
  maxShrinkEvaluations?: number;
  reproDir?: string;
  env?: EnvOptions;
  cwd?: string;
  signal?: AbortSignal;
  onEvent?: (e: ClientFuzzEvent) => void;
  toolVersion?: string;
}

/** The client suite's check whose rule every client fuzz oracle judges (crash, hang, acted on invalid data). */
const SURVIVES = ruleOf('client.near-valid-survives');

export interface ClientFuzzFinding {
  key: string;
  oracle: ClientOracleId;
  /** The catalogue check whose rule broke, its requirement IDs and spec section. */
  check: string;
  requirements: string[];
  spec: string;
  level: 'MUST' | 'SHOULD';
  method: string;
  message: string;
  count: number;
  /** The minimal plan: the answers served in the shrunk run. */
  answers: ClientAnswer[];
  evidence: ClientObservation['evidence'];
  seed: number;
  path: string;
  shrinks: number;
  shrinkBudgetReached: boolean;
  reproduced: boolean;
  repro?: string;
}

export interface ClientFuzzResult {
  target: TargetInfo;
  era: EraInfo;
  seed: number;
  runs: number;
  /** Runs in which the client asked for none of the planned answers (nothing judged). */
  unjudged: number;
  durationMs: number;
  findings: ClientFuzzFinding[];
}

export type ClientFuzzEvent =
  | { type: 'fuzz-start'; target: TargetInfo; era: EraInfo; seed: number }
  | { type: 'run'; index: number; served: number; observations: { oracle: ClientOracleId; method: string }[] }
  | { type: 'finding'; finding: ClientFuzzFinding };

export interface ClientRepro {
  reproVersion: 1;
  role: 'client';
  tool: { name: 'mcpspec'; version: string };
  target: TargetInfo;
  specVersion: SpecVersion;
  era: 'legacy' | 'modern';
  seed: number;
  path: string;
  finding: { key: string; oracle: ClientOracleId; level: 'MUST' | 'SHOULD'; method: string; message: string; title: string };
  /** The answers to serve, in order, to the requests of their methods. */
  answers: ClientAnswer[];
  evidence: ClientObservation['evidence'];
  timeoutMs: number;
}

const CHUNK = 10;

const labelOf = (a: ClientAnswer) => `${a.method} ${a.variant}${a.label ? ` (${a.label})` : ''}`;

/** Judge one client run: what it did after the answers it was served. */
export function judgeClientRun(exit: ClientExit, received: Received[], served: { seq: number; answer: ClientAnswer }[], version: string): ClientObservation[] {
  const out: ClientObservation[] = [];
  if (served.length === 0) return out;
  const last = served[served.length - 1].answer.method;
  const labels = served.map((s) => labelOf(s.answer));
  const add = (oracle: ClientOracleId, method: string, message: string, evidence: ClientObservation['evidence']) => out.push({ oracle, method, key: `${oracle}|${method}`, message, evidence });
  const crash = crashOf(exit);
  if (crash) add('crash', last, `the client crashed (${crash}) after ${labels.join('; ')}`, { exit: { exitCode: exit.exitCode, signal: exit.signal, stderrTail: exit.stderrTail.slice(-1500) }, served: labels });
  else if (exit.timedOut) add('hang', last, `the client was still running at the timeout after ${labels.join('; ')}`, { exit: { timedOut: true, stderrTail: exit.stderrTail.slice(-600) }, served: labels });
  const firstNear = served.find((s) => s.answer.variant === 'near-valid');
  if (firstNear) {
    for (const r of received) {
      const m = r.message as Record<string, unknown> | undefined;
      if (r.seq <= firstNear.seq || typeof m !== 'object' || m === null || typeof m.method !== 'string' || !('id' in m)) continue;
      const problem = schemaProblem({ seq: r.seq, t: 0, dir: 'in', channel: r.headers ? 'http' : 'stdio', raw: '', message: m }, version);
      if (problem) {
        add('acted-on-invalid', firstNear.answer.method, `after ${labelOf(firstNear.answer)} the client sent an invalid ${m.method}: ${problem.what} (${problem.pointer || '/'}: ${String(problem.expected)})`, { served: labels, request: m, problem });
        break;
      }
    }
  }
  return out;
}

/** Run the client once against the scripted server answering from `plan`. */
async function runPlan(driver: ClientDriver, plan: ClientAnswer[], name: string, version: string, signal: AbortSignal): Promise<ClientRunOutcome> {
  const sc = clientScenario<{ exit: ClientExit; received: Received[]; served: { seq: number; answer: ClientAnswer }[] }>({
    id: name,
    title: 'fuzz client: near-valid and odd answers',
    versions: ALL_VERSIONS,
    async run(ctx) {
      const served: { seq: number; answer: ClientAnswer }[] = [];
      const queue = [...plan];
      runScript(ctx.server, {
        modern: true,
        legacy: true,
        timeoutMs: ctx.options.timeoutMs,
        override(req, mctx) {
          const k = queue.findIndex((a) => a.method === req.method);
          if (k < 0) return undefined;
          const [a] = queue.splice(k, 1);
          served.push({ seq: mctx.received.seq, answer: a });
          return { jsonrpc: '2.0', id: req.id, result: a.result };
        },
      });
      const exit = await ctx.server.runClient();
      return { exit, received: ctx.server.received(), served };
    },
  });
  const o = await driver.runScenario(sc, signal);
  if ('aborted' in o) return { served: [], observations: [], aborted: o.aborted };
  if ('untestable' in o) return { served: [], observations: [], aborted: o.untestable };
  if (!('observed' in o)) throw new Error(`fuzz client: the scripted server failed: ${o.harness}`);
  const obs = o.observed as { exit: ClientExit; received: Received[]; served: { seq: number; answer: ClientAnswer }[] };
  return { exit: obs.exit, served: obs.served.map((s) => s.answer), observations: judgeClientRun(obs.exit, obs.received, obs.served, version) };
}

function driverFor(target: ClientTarget, opts: { specVersion: SpecVersion | 'auto'; timeoutMs: number; seed: number; env?: EnvOptions; cwd?: string }): ClientDriver {
  return new ClientDriver(target, { specVersion: opts.specVersion, env: opts.env, cwd: opts.cwd, timing: { timeoutMs: opts.timeoutMs }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: opts.seed, runs: 1 } });
}

function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

/** Fuzz a client. Throws TargetStartError when the client cannot be run against the plain scripted server at all. */
export async function fuzzClient(target: ClientTarget, opts: ClientFuzzOptions): Promise<ClientFuzzResult> {
  const started = Date.now();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // --time bounds the whole campaign, shrinking included: whatever is under way at its end is stopped.
  const end = opts.timeMs !== undefined ? started + opts.timeMs : Number.POSITIVE_INFINITY;
  const endTimer = Number.isFinite(end) ? setTimeout(() => stop.abort(new Error('reached its --time')), end - Date.now()) : undefined;
  try {
    const driver = driverFor(target, opts);
    const { era } = await driver.start(stop.signal);
    const version = era.judgedBy;
    opts.onEvent?.({ type: 'fuzz-start', target: driver.target, era, seed: opts.seed });
    // Plans answer only the list methods the client asked the plain server (all three if it asked none).
    const asked = Object.keys(CLIENT_ANSWER_METHODS).filter((m) => driver.plainMethods?.includes(m));
    const arb = clientAnswerPlanArbitrary(loadSchema(judgedVersion(version)), version, { maxLength: opts.maxLength, methods: asked.length ? asked : undefined });
    const total = opts.runs ?? (opts.timeMs !== undefined ? Number.POSITIVE_INFINITY : 20);
    // Once something is found, the last 30% of --time is left for shrinking.
    let found = false;
    const exploreEnd = () => (found && opts.timeMs !== undefined ? end - 0.3 * opts.timeMs : end);
    const concurrency = opts.concurrency ?? 2;
    let index = 0;
    let done = 0;
    let unjudged = 0;
    const chunks: { seed: number; numRuns: number; cases: Evaluated<ClientAnswer[], ClientRunOutcome>[] }[] = [];
    for (let k = 0; done < total && Date.now() < exploreEnd() && !stop.signal.aborted; k++) {
      const numRuns = Math.min(CHUNK, total - done);
      const popts: PropertyOptions = { seed: opts.seed + k, numRuns, concurrency };
      const cases = await evaluateCases(arb, popts, async (plan) => {
        const i = index++;
        if (Date.now() >= exploreEnd() || stop.signal.aborted) return { served: [], observations: [], aborted: 'not run: the time budget was spent' };
        const out = await runPlan(driver, plan, `fuzz-${i}`, version, stop.signal);
        if (out.observations.length) found = true;
        opts.onEvent?.({ type: 'run', index: i, served: out.served.length, observations: out.observations.map((o) => ({ oracle: o.oracle, method: o.method })) });
        return out;
      });
      const ran = cases.filter((c) => !c.result.aborted);
      done += ran.length;
      unjudged += ran.filter((c) => c.result.served.length === 0).length;
      chunks.push({ seed: popts.seed, numRuns, cases });
      if (ran.length < cases.length) break;
    }
    const firsts = new Map<string, { chunk: (typeof chunks)[number]; count: number; obs: ClientObservation }>();
    for (const chunk of chunks) {
      for (const c of chunk.cases) {
        for (const o of c.result.observations) {
          const f = firsts.get(o.key);
          if (f) f.count++;
          else firsts.set(o.key, { chunk, count: 1, obs: o });
        }
      }
    }
    const findings: ClientFuzzFinding[] = [];
    for (const [key, first] of firsts) {
      const left = Number.isFinite(end) ? Math.max(0, (end - Date.now()) / Math.max(1, firsts.size - findings.length)) : Math.max(60_000, 10 * opts.timeoutMs);
      const popts: PropertyOptions = { seed: first.chunk.seed, numRuns: first.chunk.numRuns, concurrency, maxShrinkEvaluations: opts.maxShrinkEvaluations ?? 30, shrinkBudgetMs: left };
      let n = 0;
      const shrunk = await shrinkFailure(arb, popts, first.chunk.cases, (plan) => runPlan(driver, plan, `shrink-${slug(key)}-${n++}`, version, stop.signal), (r) => r.observations.some((o) => o.key === key));
      const obs = shrunk?.result.observations.find((o) => o.key === key) ?? first.obs;
      const f: ClientFuzzFinding = {
        key,
        oracle: obs.oracle,
        level: CLIENT_ORACLES[obs.oracle].level,
        method: obs.method,
        message: obs.message,
        count: first.count,
        // Only the answers that were served matter: the client never asked for the rest.
        answers: shrunk?.result.served ?? [],
        evidence: obs.evidence,
        seed: popts.seed,
        path: shrunk?.path ?? '',
        shrinks: shrunk?.shrinks ?? 0,
        shrinkBudgetReached: shrunk?.budgetReached ?? false,
        reproduced: shrunk !== undefined && shrunk.result.observations.some((o) => o.key === key),
        // The suite's check of the same rule: a client served near-valid answers survives them.
        check: SURVIVES.id,
        requirements: SURVIVES.requirements,
        spec: SURVIVES.spec,
      };
      if (opts.reproDir) {
        const repro: ClientRepro = {
          reproVersion: 1,
          role: 'client',
          tool: { name: 'mcpspec', version: opts.toolVersion ?? 'unknown' },
          target: driver.target,
          specVersion: version,
          era: era.era,
          seed: f.seed,
          path: f.path,
          finding: { key, oracle: f.oracle, level: f.level, method: f.method, message: f.message, title: CLIENT_ORACLES[f.oracle].title },
          answers: f.answers,
          evidence: f.evidence,
          timeoutMs: opts.timeoutMs,
        };
        mkdirSync(opts.reproDir, { recursive: true });
        f.repro = join(opts.reproDir, `repro-client-${slug(f.oracle)}-${slug(f.method)}.json`);
        writeFileSync(f.repro, `${JSON.stringify(repro, null, 2)}\n`);
      }
      findings.push(f);
      opts.onEvent?.({ type: 'finding', finding: f });
    }
    return { target: driver.target, era, seed: opts.seed, runs: done, unjudged, durationMs: Date.now() - started, findings };
  } finally {
    if (endTimer) clearTimeout(endTimer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

export function isClientRepro(data: unknown): data is ClientRepro {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'client';
}

/** Check a parsed client repro; throws a message for what is wrong. */
export function clientReproProblem(r: Partial<ClientRepro>): string | undefined {
  if (r.reproVersion !== 1) return `reproVersion ${JSON.stringify(r.reproVersion)} is not supported (expected 1)`;
  if (!isSpecVersion(r.specVersion)) return `specVersion ${JSON.stringify(r.specVersion)} is not a known version`;
  if (!Array.isArray(r.answers) || r.answers.length === 0) return 'no answers';
  if (!r.finding || !(r.finding.oracle in CLIENT_ORACLES)) return 'the finding names no known client oracle';
  if (!r.target || r.target.role !== 'client' || !r.target.command) return 'the target is no client command';
  return undefined;
}

export interface ClientReplayResult {
  reproduced: boolean;
  observations: ClientObservation[];
  outcome: ClientRunOutcome;
  exit?: string;
}

/** Start the client again (the repro's, or `target`) and serve the same answers in the same order. */
export async function replayClient(repro: ClientRepro, target?: ClientTarget, opts: { timeoutMs?: number; env?: EnvOptions; signal?: AbortSignal } = {}): Promise<ClientReplayResult> {
  const t = repro.target as { transport: 'http' | 'stdio'; command?: string; args?: string[] };
  const spec: ClientTarget = target ?? { command: t.command!, args: t.args ?? [], transport: t.transport };
  const driver = driverFor(spec, { specVersion: repro.specVersion, timeoutMs: opts.timeoutMs ?? repro.timeoutMs, seed: repro.seed, env: opts.env });
  const outcome = await runPlan(driver, repro.answers, 'replay', repro.specVersion, opts.signal ?? new AbortController().signal);
  return { reproduced: outcome.observations.some((o) => o.key === repro.finding.key), observations: outcome.observations, outcome, exit: outcome.exit ? describeExit(outcome.exit) : undefined };
}
