// Run one fuzz sequence against a fresh target and judge every step: crash (the process exited or
// the connection was lost), hang (no answer, and no answer to a fence either), an unanswered request,
// an invalid message (the wire.schema oracle's wireProblems), a changed id, an internal error where
// the spec names a code, a notification answered, a near-valid request served as valid.

import type { RequestId } from '../protocol/jsonrpc.js';
import type { SpecVersion } from '../protocol/versions.js';
import { unusualId, type Step } from '../arbitraries/sequences.js';
import { clipJson, errorCode, isObj, resultOf } from '../suites/exchange.js';
import type { Exchange } from '../suites/ports.js';
import { wireProblems } from '../suites/wire.js';
import { HandshakeError, type BaseSession } from './base-session.js';
import { Recorder } from './recorder.js';
import { openSession, STARTUP_ALLOWANCE_MS, STARTUP_FACTOR } from './session.js';
import { HttpTransport } from './http-transport.js';
import type { ServerTarget } from './server-driver.js';
import { StartedHttpTransport, type StartCommand } from './started-http.js';
import { StdioTransport } from './stdio-transport.js';
import type { TargetSandbox } from './target-env.js';
import { TargetStartError, type TransportFactory } from './transport.js';
import type { TargetInfo } from '../results/run.js';

export type OracleId = 'crash' | 'hang' | 'unanswered' | 'schema' | 'id-mismatch' | 'internal-error' | 'notification-answered' | 'near-valid-served';

export const ORACLES: Record<OracleId, { level: 'MUST' | 'SHOULD'; title: string }> = {
  crash: { level: 'MUST', title: 'the target neither exits nor drops the connection during a session' },
  hang: { level: 'MUST', title: 'the target keeps answering: a request unanswered within the timeout is followed by an answered fence' },
  unanswered: { level: 'MUST', title: 'every request gets a response' },
  schema: { level: 'MUST', title: 'every message from the target validates against the schema of the version in use' },
  'id-mismatch': { level: 'MUST', title: 'every response carries its request id exactly (type and value), and no response answers an unknown id' },
  'internal-error': { level: 'MUST', title: 'a request with invalid params is refused with -32602 (or the code the spec names), not -32603 internal error' },
  'notification-answered': { level: 'MUST', title: 'notifications are never answered' },
  'near-valid-served': { level: 'SHOULD', title: 'a near-valid request (one constraint broken) is refused, not served as valid' },
};

/** One broken rule at one step of a sequence. */
export interface Observation {
  oracle: OracleId;
  /** The method (for tool calls `tools/call <tool>`) of the step it broke at. */
  method: string;
  /** Findings are de-duplicated by this: oracle + method. */
  key: string;
  step: number;
  message: string;
  evidence: { request?: unknown; response?: unknown; expected?: unknown; actual?: unknown; stderrTail?: string };
}

export interface StepRecord {
  step: Step;
  /** What was sent, ids and references resolved (undefined: the step was skipped, e.g. nothing listed to refer to). */
  sent?: unknown;
  response?: unknown;
  skipped?: string;
}

export interface SequenceOutcome {
  records: StepRecord[];
  observations: Observation[];
  /** The fresh target could not be started or initialized: nothing of the sequence was judged. */
  startFailure?: string;
  durationMs: number;
}

export interface SequenceContext {
  factory: TransportFactory;
  version: SpecVersion;
  timeoutMs: number;
  /** URIs listed during discovery: resources/read steps use these until the sequence lists its own. */
  resources: string[];
  /** The run-wide recorder (each sequence records into a child). */
  parent?: Recorder;
  source?: string;
  signal?: AbortSignal;
}

export const methodOf = (s: Step): string => (s.kind === 'call' ? `tools/call ${s.tool}` : s.kind === 'read' ? 'resources/read' : s.method);

function deliberate(s: Step): boolean {
  return s.kind === 'raw' || (s.kind === 'call' && s.variant === 'near-valid');
}

function idOf(s: Step, position: number): RequestId | undefined {
  return 'idStyle' in s && s.idStyle !== 'counter' ? unusualId(s.idStyle, position) : undefined;
}

function listedUris(ex: Exchange): string[] | undefined {
  const r = resultOf(ex);
  if (!r || !Array.isArray(r.resources)) return undefined;
  return r.resources.filter((x): x is Record<string, unknown> => isObj(x) && typeof x.uri === 'string').map((x) => x.uri as string);
}

/** Start a fresh target, run the steps, judge each; the target is closed before this resolves. */
export async function runSequence(steps: Step[], ctx: SequenceContext): Promise<SequenceOutcome> {
  const started = Date.now();
  const recorder = new Recorder({ parent: ctx.parent, source: ctx.source ?? 'fuzz' });
  let session: BaseSession;
  try {
    session = await openSession(ctx.factory, { specVersion: ctx.version, timeoutMs: ctx.timeoutMs, recorder, signal: ctx.signal });
  } catch (e) {
    if (e instanceof HandshakeError || e instanceof TargetStartError) return { records: [], observations: [], startFailure: e.message, durationMs: Date.now() - started };
    throw e;
  }
  const records: StepRecord[] = [];
  const observations: Observation[] = [];
  let uris = ctx.resources;
  try {
    for (let i = 0; i < steps.length; i++) {
      if (ctx.signal?.aborted) break;
      const step = steps[i];
      const mark = recorder.lastSeq();
      const rec: StepRecord = { step };
      records.push(rec);
      const id = idOf(step, i);
      let ex: Exchange;
      switch (step.kind) {
        case 'request':
          rec.sent = { method: step.method, params: step.params, ...(id !== undefined ? { id } : {}) };
          ex = await session.request(step.method, step.params, { id });
          break;
        case 'call': {
          const params = { name: step.tool, arguments: step.arguments };
          rec.sent = { method: 'tools/call', params, ...(id !== undefined ? { id } : {}) };
          ex = await session.request('tools/call', params, { id });
          break;
        }
        case 'read': {
          if (uris.length === 0) {
            rec.skipped = 'no resource was listed to read';
            continue;
          }
          const params = { uri: uris[step.uri.index % uris.length] };
          rec.sent = { method: 'resources/read', params, ...(id !== undefined ? { id } : {}) };
          ex = await session.request('resources/read', params, { id });
          break;
        }
        case 'raw': {
          const msg = structuredClone(step.message) as Record<string, unknown>;
          // A fresh id unique in the session, unless the mutation is the id itself.
          if (isObj(msg) && 'id' in msg && !step.label.startsWith('/id')) msg.id = `fuzz-${i}`;
          const readable = isObj(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : undefined;
          rec.sent = msg;
          ex = await session.probe(msg, { expectId: readable, idless: true });
          break;
        }
        case 'notify':
          rec.sent = { method: step.method, ...(step.params ? { params: step.params } : {}) };
          ex = await session.notify(step.method, step.params);
          break;
      }
      rec.response = ex.response;
      if (step.kind === 'request' && step.method === 'resources/list') uris = listedUris(ex) ?? uris;
      const stop = await judge(step, i, ex, session, recorder, mark, ctx, observations);
      if (stop) break;
    }
  } finally {
    await session.close().catch(() => undefined);
  }
  return { records, observations, durationMs: Date.now() - started };
}

/** Judge one step; true when the sequence cannot go on (crash, hang). */
async function judge(step: Step, i: number, ex: Exchange, session: BaseSession, recorder: Recorder, mark: number, ctx: SequenceContext, out: Observation[]): Promise<boolean> {
  const method = methodOf(step);
  const add = (oracle: OracleId, message: string, evidence: Observation['evidence'] = {}) => out.push({ oracle, method, key: `${oracle}|${method}`, step: i, message, evidence });
  const request = clipJson(ex.request);
  if (ex.aborted) return true;
  if (ex.closed) {
    const how = ex.closed.signal ? `was killed by ${ex.closed.signal}` : ex.closed.exitCode !== undefined && ex.closed.exitCode !== null ? `exited with code ${ex.closed.exitCode}` : 'lost the connection';
    add('crash', `the target ${how} on ${method}`, { request, stderrTail: ex.closed.stderrTail?.slice(-2000) });
    return true;
  }
  const isNotification = step.kind === 'notify' || (step.kind === 'raw' && isObj(ex.request) && !('id' in ex.request));
  const unmatched = recorder.eventsSince(mark).filter((e) => e.note === 'unmatched-response' && e.data?.late !== true);
  if (ex.timedOut && ex.response === undefined) {
    const fence = await session.fence();
    if (fence.closed) {
      add('crash', `the target ${fence.closed.exitCode !== null ? `exited with code ${fence.closed.exitCode}` : 'lost the connection'} after ${method}`, { request, stderrTail: fence.closed.stderrTail?.slice(-2000) });
      return true;
    }
    if (fence.response === undefined && !fence.aborted) {
      add('hang', `the target stopped answering: neither ${method} nor a ${fence.method} sent after it were answered within ${ctx.timeoutMs} ms`, { request });
      return true;
    }
    if (isNotification) return false; // a notification owes no answer
  }
  const lateUnmatched = recorder.eventsSince(mark).filter((e) => e.note === 'unmatched-response' && e.data?.late !== true);
  const strays = lateUnmatched.length ? lateUnmatched : unmatched;
  const sentId = isObj(ex.request) ? ex.request.id : undefined;
  if (strays.length) {
    add('id-mismatch', `a response with id ${JSON.stringify(strays[0].data?.id)} answered ${method} sent with id ${JSON.stringify(sentId)}`, { request, actual: strays[0].message, expected: { id: sentId } });
    return false;
  }
  if (isNotification) {
    if (ex.response !== undefined) add('notification-answered', `${method} (a notification) was answered`, { request, actual: clipJson(ex.response) });
    return false;
  }
  if (ex.response === undefined) {
    // A near-valid message whose id cannot be read may be answered with a null id: the transport attributes it (idless).
    add('unanswered', `${method} got no response within ${ctx.timeoutMs} ms (a fence sent after it was answered)`, { request });
    return false;
  }
  const resp = ex.response as Record<string, unknown>;
  if ((typeof sentId === 'string' || typeof sentId === 'number') && resp.id !== sentId && !(deliberate(step) && (resp.id === null || resp.id === undefined))) {
    add('id-mismatch', `${method} sent with id ${JSON.stringify(sentId)} was answered with id ${JSON.stringify(resp.id)}`, { request, expected: sentId, actual: resp.id });
  }
  const problems = wireProblems({ exchanges: [ex], events: [], version: ctx.version, transport: session.kind, deliberate: () => deliberate(step) });
  if (problems.length) add('schema', `${problems[0].what}${problems[0].pointer ? ` at ${problems[0].pointer}` : ''}: ${String(problems[0].expected)}`, { request, actual: problems[0].actual, expected: problems[0].expected });
  if (deliberate(step)) {
    const code = errorCode(ex);
    if (code === -32603) add('internal-error', `${method} with invalid params got -32603 internal error; the spec names -32602 for invalid params`, { request, actual: clipJson(resp) });
    const r = resultOf(ex);
    if (r && !(step.kind === 'call' && r.isError === true)) {
      add('near-valid-served', `${method} near-valid (${step.kind === 'raw' ? step.label : (step as { label?: string }).label ?? 'invalid arguments'}) was served as valid`, { request, actual: clipJson(resp) });
    }
  }
  return false;
}

export function targetInfo(spec: ServerTarget): TargetInfo {
  return spec.kind === 'stdio' ? { role: 'server', transport: 'stdio', command: spec.command, args: spec.args } : { role: 'server', transport: 'http', url: spec.url };
}

/**
 * A factory that starts the target afresh for each sequence (stdio; HTTP with a start command) or
 * opens a new connection to the one server (HTTP).
 */
export function targetFactory(spec: ServerTarget, sandbox: TargetSandbox | undefined, start?: StartCommand, timeoutMs = 10_000): TransportFactory {
  return (recorder) => {
    if (spec.kind === 'stdio') return new StdioTransport({ command: spec.command, args: spec.args, cwd: sandbox!.cwd, env: sandbox!.env }, recorder, { acceptMultiLine: true });
    if (start) return new StartedHttpTransport(spec.url, spec.headers, start, recorder, { cwd: sandbox?.cwd, env: sandbox?.env, startTimeoutMs: Math.min(STARTUP_ALLOWANCE_MS, STARTUP_FACTOR * timeoutMs) });
    return new HttpTransport({ url: spec.url, headers: spec.headers }, recorder);
  };
}

