// Run one fuzz sequence against a fresh target and judge every step: crash (the process exited or
// the connection was lost), hang (no answer, and no answer to a fence either), an unanswered request,
// an invalid message (the wire.schema oracle's wireProblems), a changed id, an internal error where
// the spec names a code, a notification answered, a near-valid request served as valid.

import { isStrictNotification, type RequestId } from '../protocol/jsonrpc.js';
import { isModernVersion, type SpecVersion } from '../protocol/versions.js';
import { unusualId, type IdStyle, type ListedRef } from '../arbitraries/sequences.js';
import { isTransportStep, type FuzzStep } from '../arbitraries/fuzz-sequences.js';
import { headerOverrides, multiByteId, NEAR_VALID_HEADER_VARIANTS, REJECTED_HEADER_VARIANTS, splitOffsets, type TransportStep } from '../arbitraries/transport-steps.js';
import { clipJson, errorCode, isObj, resultOf } from '../suites/kit/exchange.js';
import { judgeSequence, ruleOf, sequenceOracles, shortName, type OracleId } from './oracles.js';

export type { OracleId } from './oracles.js';
import type { Exchange } from '../suites/ports/session.js';
import type { Evidence } from '../results/verdict.js';
import { HandshakeError, type BaseSession } from '../runner/base-session.js';
import { Recorder } from '../runner/recorder.js';
import { openSession, STARTUP_ALLOWANCE_MS, STARTUP_FACTOR } from '../runner/session.js';
import { HttpTransport } from '../runner/http-transport.js';
import type { ServerTarget } from '../runner/server-driver.js';
import { StartedHttpTransport, type StartCommand } from '../runner/started-http.js';
import { ParamHeaderBook } from '../runner/param-header-book.js';
import { StdioTransport } from '../runner/stdio-transport.js';
import type { TargetSandbox } from '../runner/target-env.js';
import { TargetStartError, type TransportFactory } from '../runner/transport.js';
import type { TargetInfo } from '../results/run.js';

/** One broken rule at one step of a sequence: a violated check of the catalogue. */
export interface Observation {
  /** The rule's short name (crash, hang, schema, ...; the check id otherwise). */
  oracle: OracleId;
  /** The check whose rule broke. */
  check: string;
  level: 'MUST' | 'SHOULD';
  /** The method (for tool calls `tools/call <tool>`) of the step it broke at. */
  method: string;
  /** Findings are de-duplicated by this: check + method. */
  key: string;
  step: number;
  message: string;
  evidence: { request?: unknown; response?: unknown; expected?: unknown; actual?: unknown; stderrTail?: string };
}

export interface StepRecord {
  step: FuzzStep;
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
  /** Prompts and resource templates listed during discovery (likewise). */
  prompts?: ListedPrompt[];
  templates?: string[];
  /** The era in use and what the server declared: which of the catalogue's oracles apply. */
  era?: 'legacy' | 'modern';
  capabilities?: Record<string, unknown>;
  /** The run-wide recorder (each sequence records into a child). */
  parent?: Recorder;
  source?: string;
  signal?: AbortSignal;
  /**
   * The id style of this sequence (see ID_THEMES): requests the session would number get ids of
   * this style instead (steps with an unusual style of their own keep it). Undefined / counter: none.
   */
  idTheme?: IdStyle;
}

export function methodOf(s: FuzzStep): string {
  switch (s.kind) {
    case 'split':
      return `split write ${s.method}`;
    case 'joined':
      return 'joined write';
    case 'headers':
      return `headers ${s.variant}`;
    case 'sse':
      return `sse ${s.tool ? `tools/call ${s.tool}` : s.method}`;
    case 'call':
      return `tools/call ${s.tool}`;
    case 'read':
      return 'resources/read';
    case 'prompt':
      return 'prompts/get';
    case 'complete':
      return 'completion/complete';
    case 'subscribe':
      return 'resources/subscribe';
    case 'unsubscribe':
      return 'resources/unsubscribe';
    default:
      return s.method;
  }
}

/** A prompt as prompts/list describes it: what prompts/get and completion/complete steps refer to. */
export interface ListedPrompt {
  name: string;
  arguments: { name: string; required: boolean }[];
}

/** What the session knows so far: later steps refer to real things (listed, subscribed, answered). */
interface SessionModel {
  uris: string[];
  prompts: ListedPrompt[];
  templates: string[];
  subscriptions: string[];
  answered: RequestId[];
}

function idOf(s: FuzzStep, position: number, theme: IdStyle | undefined): RequestId | undefined {
  if ('idStyle' in s && s.idStyle !== 'counter') return unusualId(s.idStyle, position);
  const themed = theme !== undefined && theme !== 'counter';
  if (s.kind === 'split' && s.inChar) return multiByteId(position);
  if (themed && s.kind !== 'notify' && s.kind !== 'raw' && s.kind !== 'joined') return unusualId(theme, position);
  return undefined;
}

function listed(ex: Exchange, field: string): Record<string, unknown>[] | undefined {
  const r = resultOf(ex);
  if (!r || !Array.isArray(r[field])) return undefined;
  return (r[field] as unknown[]).filter(isObj);
}

function listedUris(ex: Exchange): string[] | undefined {
  return listed(ex, 'resources')?.flatMap((x) => (typeof x.uri === 'string' ? [x.uri] : []));
}

/** The prompts a prompts/list result lists (names and arguments). */
export function listedPrompts(items: unknown[]): ListedPrompt[] {
  return items.filter(isObj).flatMap((p) =>
    typeof p.name === 'string'
      ? [{ name: p.name, arguments: (Array.isArray(p.arguments) ? p.arguments.filter(isObj) : []).flatMap((a) => (typeof a.name === 'string' ? [{ name: a.name, required: a.required === true }] : [])) }]
      : [],
  );
}

/** The variable names of an RFC 6570 URI template (`{a}`, `{+b,c*}`, `{d:3}`). */
export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{([^}]*)\}/g)) {
    for (const v of m[1].replace(/^[+#./;?&=,!@|]/, '').split(',')) {
      const name = v.replace(/\*$/, '').replace(/:\d+$/, '').trim();
      if (name && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

const pick = <T>(list: T[], r: ListedRef): T => list[r.index % list.length];

const NO_SUCH_PROMPT = 'mcpspec-no-such-prompt';

/** A step resolved against the session model: what to send (undefined: skipped, and why). */
interface Resolved {
  method?: string;
  params?: Record<string, unknown>;
  skipped?: string;
  /** Broken on purpose: the target should refuse it. */
  deliberate: boolean;
  label?: string;
}

function resolve(step: FuzzStep, m: SessionModel): Resolved {
  if (isTransportStep(step)) {
    if (step.kind === 'headers' && NEAR_VALID_HEADER_VARIANTS.includes(step.variant)) return { deliberate: true, label: `headers: ${step.variant}` };
    return { deliberate: false };
  }
  switch (step.kind) {
    case 'read':
      if (m.uris.length === 0) return { skipped: 'no resource was listed to read', deliberate: false };
      return { method: 'resources/read', params: { uri: pick(m.uris, step.uri) }, deliberate: false };
    case 'subscribe':
      if (m.uris.length === 0) return { skipped: 'no resource was listed to subscribe to', deliberate: false };
      return { method: 'resources/subscribe', params: { uri: pick(m.uris, step.uri) }, deliberate: false };
    case 'unsubscribe':
      if (m.subscriptions.length === 0) return { skipped: 'nothing was subscribed to in this sequence', deliberate: false };
      return { method: 'resources/unsubscribe', params: { uri: pick(m.subscriptions, step.subscription) }, deliberate: false };
    case 'prompt': {
      if (step.args === 'unknown-prompt') return { method: 'prompts/get', params: { name: NO_SUCH_PROMPT, arguments: {} }, deliberate: true, label: 'a prompt name nobody listed' };
      if (m.prompts.length === 0) return { skipped: 'no prompt was listed', deliberate: false };
      const p = pick(m.prompts, step.prompt);
      const required = p.arguments.filter((a) => a.required);
      let names = (step.args === 'all' ? p.arguments : required).map((a) => a.name);
      let deliberate = false;
      let label: string | undefined;
      if (step.args === 'missing-required' && required.length > 0) {
        names = names.filter((n) => n !== required[0].name);
        deliberate = true;
        label = `required argument ${required[0].name} left out`;
      }
      return { method: 'prompts/get', params: { name: p.name, arguments: Object.fromEntries(names.map((n) => [n, step.value])) }, deliberate, label };
    }
    case 'complete': {
      if (step.target.ref === 'prompt') {
        const withArgs = m.prompts.filter((p) => p.arguments.length > 0);
        if (withArgs.length === 0) return { skipped: 'no listed prompt has arguments to complete', deliberate: false };
        const p = pick(withArgs, step.target);
        const a = p.arguments[step.argument % p.arguments.length];
        return { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: p.name }, argument: { name: a.name, value: step.value } }, deliberate: false };
      }
      const withVars = m.templates.filter((t) => templateVariables(t).length > 0);
      if (withVars.length === 0) return { skipped: 'no listed resource template has variables to complete', deliberate: false };
      const t = pick(withVars, step.target);
      const vars = templateVariables(t);
      return { method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: t }, argument: { name: vars[step.argument % vars.length], value: step.value } }, deliberate: false };
    }
    case 'notify': {
      if (!step.answered) return { method: step.method, params: step.params, deliberate: false };
      if (m.answered.length === 0) return { skipped: 'no request of this sequence was answered yet', deliberate: false };
      return { method: step.method, params: { ...step.params, requestId: pick(m.answered, step.answered) }, deliberate: false };
    }
    default:
      return { deliberate: step.kind === 'raw' || (step.kind === 'call' && step.variant === 'near-valid') };
  }
}

/** What the session learns from an answered step. */
function learn(step: FuzzStep, sent: Record<string, unknown> | undefined, ex: Exchange, m: SessionModel): void {
  const resp = ex.response;
  if (isObj(resp) && (typeof resp.id === 'string' || typeof resp.id === 'number') && isObj(sent) && sent.id !== undefined && resp.id === sent.id) m.answered.push(resp.id);
  const params = isObj(sent) && isObj(sent.params) ? sent.params : {};
  if (step.kind === 'request' && step.method === 'resources/list') m.uris = listedUris(ex) ?? m.uris;
  if (step.kind === 'request' && step.method === 'prompts/list') {
    const items = listed(ex, 'prompts');
    if (items) m.prompts = listedPrompts(items);
  }
  if (step.kind === 'request' && step.method === 'resources/templates/list') {
    const items = listed(ex, 'resourceTemplates');
    if (items) m.templates = items.flatMap((t) => (typeof t.uriTemplate === 'string' ? [t.uriTemplate] : []));
  }
  if (resultOf(ex) && typeof params.uri === 'string') {
    if (step.kind === 'subscribe' && !m.subscriptions.includes(params.uri)) m.subscriptions.push(params.uri);
    if (step.kind === 'unsubscribe') m.subscriptions = m.subscriptions.filter((u) => u !== params.uri);
  }
}

/** What one sequence sent and got, for the oracles: each exchange with its step and whether it was broken on purpose. */
interface Traffic {
  exchanges: Exchange[];
  stepOf: Map<Exchange, number>;
  deliberate: Set<Exchange>;
  /** The recording position at which each step started. */
  stepStarts: number[];
}

/** Start a fresh target, run the steps, judge each; the target is closed before this resolves. */
export async function runSequence(steps: FuzzStep[], ctx: SequenceContext): Promise<SequenceOutcome> {
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
  const traffic: Traffic = { exchanges: [], stepOf: new Map(), deliberate: new Set(), stepStarts: [] };
  const model: SessionModel = { uris: ctx.resources, prompts: ctx.prompts ?? [], templates: ctx.templates ?? [], subscriptions: [], answered: [] };
  try {
    for (let i = 0; i < steps.length; i++) {
      if (ctx.signal?.aborted) break;
      const step = steps[i];
      traffic.stepStarts.push(recorder.lastSeq());
      const rec: StepRecord = { step };
      records.push(rec);
      const id = idOf(step, i, ctx.idTheme);
      const r = resolve(step, model);
      if (r.skipped) {
        rec.skipped = r.skipped;
        continue;
      }
      const note = (ex: Exchange): Exchange => {
        traffic.exchanges.push(ex);
        traffic.stepOf.set(ex, i);
        if (r.deliberate) traffic.deliberate.add(ex);
        return ex;
      };
      let exs: Exchange[];
      const withId = (sent: Record<string, unknown>) => ({ ...sent, ...(id !== undefined ? { id } : {}) });
      if (isTransportStep(step)) {
        const sent = await runTransportStep(step, i, id, session, ctx, rec);
        if (!sent) continue;
        exs = sent.map(note);
      } else if (step.kind === 'raw') {
        const msg = structuredClone(step.message) as Record<string, unknown>;
        // A fresh id unique in the session (of the sequence's id theme), unless the mutation is the id itself.
        const themed = ctx.idTheme !== undefined && ctx.idTheme !== 'counter' ? unusualId(ctx.idTheme, i) : `fuzz-${i}`;
        if (isObj(msg) && 'id' in msg && !step.label.startsWith('/id')) msg.id = themed;
        const readable = isObj(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : undefined;
        rec.sent = msg;
        exs = [note(await session.probe(msg, { expectId: readable, idless: true }))];
      } else if (step.kind === 'notify') {
        rec.sent = { method: r.method, ...(r.params ? { params: r.params } : {}) };
        exs = [note(await session.notify(r.method!, r.params))];
      } else {
        const method = step.kind === 'request' ? step.method : step.kind === 'call' ? 'tools/call' : r.method!;
        const params = step.kind === 'request' ? step.params : step.kind === 'call' ? { name: step.tool, arguments: step.arguments } : r.params!;
        rec.sent = withId({ method, params });
        exs = [note(await session.request(method, params, { id }))];
      }
      if (!Array.isArray(rec.response)) rec.response = exs.length === 1 ? exs[0].response : exs.map((e) => e.response);
      if (exs.length === 1) learn(step, isObj(exs[0].request) ? exs[0].request : undefined, exs[0], model);
      let stop = false;
      for (const ex of exs) if (!stop) stop = await stepJudge(step, r, i, ex, session, recorder, ctx, observations, note);
      if (stop) break;
    }
    // The catalogue's stream oracles over everything the sequence saw (before the target is closed:
    // closing it is mcpspec's doing, and says nothing).
    const declared = { era: ctx.era ?? session.era, capabilities: ctx.capabilities ?? session.capabilities ?? {} };
    const oracles = sequenceOracles(ctx.version, session.kind, declared.capabilities);
    const violations = judgeSequence(oracles, { exchanges: traffic.exchanges, events: recorder.events(), version: ctx.version, transport: session.kind, deliberate: (ex) => traffic.deliberate.has(ex) }, declared);
    for (const v of violations) {
      const step = stepOfViolation(v.evidence, traffic, steps.length);
      const ev = v.evidence[0] ?? { what: v.message };
      observations.push(observationOf(v.check, methodOf(steps[step]), step, v.message, { request: ev.request, response: ev.response, expected: ev.expected, actual: ev.actual, ...(v.check === 'robustness.stays-up' ? stderrOf(v.evidence) : {}) }));
    }
  } finally {
    await session.close().catch(() => undefined);
  }
  return { records, observations, durationMs: Date.now() - started };
}

/** What a dead target last printed (robustness.stays-up's evidence carries it as `actual`). */
function stderrOf(evidence: { actual?: unknown }[]): { stderrTail?: string } {
  const tail = evidence.map((e) => e.actual).find((a): a is string => typeof a === 'string' && a.length > 0);
  return tail ? { stderrTail: tail } : {};
}

function observationOf(check: string, method: string, step: number, message: string, evidence: Observation['evidence']): Observation {
  const rule = ruleOf(check);
  return { oracle: shortName(check), check, level: rule.level === 'MUST' ? 'MUST' : 'SHOULD', method, key: `${check}|${method}`, step, message, evidence };
}

/**
 * The step a violation rests on: the first one whose traffic its evidence names, by recording
 * position or by the request it quotes (the last step when it names none).
 */
function stepOfViolation(evidence: Evidence[], traffic: Traffic, steps: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const seq of evidence.flatMap((e) => e.seq ?? [])) {
    const ex = traffic.exchanges.find((e) => e.seq.includes(seq));
    const at = ex ? traffic.stepOf.get(ex)! : traffic.stepStarts.findLastIndex((start) => start < seq);
    if (at >= 0) best = Math.min(best, at);
  }
  if (!Number.isFinite(best)) {
    const quoted = new Set(evidence.flatMap((e) => (e.request !== undefined ? [JSON.stringify(e.request)] : [])));
    for (const ex of traffic.exchanges) if (quoted.has(JSON.stringify(clipJson(ex.request)))) best = Math.min(best, traffic.stepOf.get(ex)!);
  }
  return Number.isFinite(best) ? best : Math.max(0, Math.min(traffic.stepStarts.length, steps) - 1);
}

/** Wait until the target sends anything on this recording after `mark`, or `ms` pass. */
async function anythingAfter(recorder: Recorder, mark: number, ms: number, signal?: AbortSignal): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !signal?.aborted) {
    if (recorder.eventsSince(mark).some((e) => e.dir === 'in' && e.kind === 'message')) return true;
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(1, end - Date.now()))));
  }
  return recorder.eventsSince(mark).some((e) => e.dir === 'in' && e.kind === 'message');
}

/**
 * The rules judged on the step itself, each named by the suite check of the same rule; and whether
 * the sequence can go on (false after a crash or a hang). Crashes, hangs, silences, ids and schemas
 * are judged by the stream oracles at the end; here a silence is followed by the liveness probes
 * they judge.
 */
async function stepJudge(step: FuzzStep, r: Resolved, i: number, ex: Exchange, session: BaseSession, recorder: Recorder, ctx: SequenceContext, out: Observation[], note: (ex: Exchange) => Exchange): Promise<boolean> {
  const method = methodOf(step);
  const add = (check: string, message: string, evidence: Observation['evidence'] = {}) => out.push(observationOf(check, method, i, message, evidence));
  const request = clipJson(ex.request);
  if (ex.aborted || ex.closed) return true;
  // A raw message without an id is a notification only when it is a clean one: a near-valid request
  // that lost its id but kept an extra member may be refused as an Invalid Request (id null).
  const isNotification = step.kind === 'notify' || (step.kind === 'raw' && isStrictNotification(ex.request));
  if (ex.timedOut && ex.response === undefined && !isNotification) {
    // Silent for its whole timeout: is the target still answering? (robustness.keeps-answering judges the probes.)
    const mark = recorder.lastSeq();
    const probes = (await session.liveness()).map(note);
    if (probes.some((p) => p.closed || p.aborted)) return true;
    if (probes.every((p) => p.response === undefined)) {
      // A tool may be slow by design: one more timeout for anything at all (a late answer) before it is called a hang.
      if (step.kind === 'call' || (step.kind === 'sse' && step.tool)) await anythingAfter(recorder, mark, ctx.timeoutMs, ctx.signal);
      return true;
    }
    return false;
  }
  if (isNotification) {
    if (ex.response !== undefined) add('jsonrpc.notification-no-response', `${method} (a notification) was answered`, { request, actual: clipJson(ex.response) });
    return false;
  }
  if (ex.response === undefined) return false;
  const resp = ex.response as Record<string, unknown>;
  if (step.kind === 'headers') {
    // Only where the spec prescribes the rejection (HL-08, HM-06, HM-08).
    const rule = REJECTED_HEADER_VARIANTS[step.variant];
    const modern = isModernVersion(ctx.version);
    const ids = rule ? (modern ? rule.modern : rule.legacy) : undefined;
    if (rule && ids && resultOf(ex)) add(modern ? 'http.header-mismatch' : 'robustness.rejects-near-valid', `${step.method} with headers ${step.variant} was served as valid (${ids.join(', ')}: ${rule.why})`, { request, actual: clipJson(resp), expected: { status: 400 } });
    return false;
  }
  if (!r.deliberate) return false;
  // Near-valid: judged as the suite judges the same kind of request.
  const check = step.kind === 'call' ? 'tools.invalid-args-rejected' : step.kind === 'prompt' ? (step.args === 'unknown-prompt' ? 'prompts.unknown' : 'prompts.missing-args') : 'robustness.rejects-near-valid';
  const what = step.kind === 'raw' ? step.label : (r.label ?? (step as { label?: string }).label ?? 'invalid arguments');
  const code = errorCode(ex);
  // -32603 for invalid params breaks a rule that names -32602 (tool arguments, prompts); a raw near-valid message may get any error.
  if (code === -32603 && check !== 'robustness.rejects-near-valid') add(check, `${method} near-valid (${what}) got -32603 internal error; the spec names -32602 for invalid params`, { request, actual: clipJson(resp), expected: { error: { code: -32602 } } });
  const result = resultOf(ex);
  if (result && !(step.kind === 'call' && result.isError === true)) add(check, `${method} near-valid (${what}) was served as valid`, { request, actual: clipJson(resp), expected: 'an error' });
  return false;
}

export function targetInfo(spec: ServerTarget): TargetInfo {
  return spec.kind === 'stdio' ? { role: 'server', transport: 'stdio', command: spec.command, args: spec.args } : { role: 'server', transport: 'http', url: spec.url };
}

/**
 * A factory that starts the target afresh for each sequence (stdio; HTTP with a start command) or
 * opens a new connection to the one server (HTTP).
 */
export function targetFactory(spec: ServerTarget, sandbox: TargetSandbox | undefined, start?: StartCommand, timeoutMs = 10_000, paramHeaders = new ParamHeaderBook()): TransportFactory {
  // Every sequence reaches the same server (or one started by the same command): one book of its
  // x-mcp-header declarations, learnt at discovery (or kept by the repro a replay runs).
  return (recorder) => {
    if (spec.kind === 'stdio') return new StdioTransport({ command: spec.command, args: spec.args, cwd: sandbox!.cwd, env: sandbox!.env }, recorder, { acceptMultiLine: true });
    if (start) return new StartedHttpTransport(spec.url, spec.headers, start, recorder, { cwd: sandbox?.cwd, env: sandbox?.env, startTimeoutMs: Math.min(STARTUP_ALLOWANCE_MS, Math.max(10_000, STARTUP_FACTOR * timeoutMs)), paramHeaders });
    return new HttpTransport({ url: spec.url, headers: spec.headers }, recorder, { paramHeaders });
  };
}


/** Write one chunk and wait until it is handed to the pipe. */
function writeChunk(stdin: NodeJS.WritableStream, chunk: Uint8Array | string): Promise<void> {
  return new Promise((resolve) => {
    stdin.write(chunk, () => resolve());
  });
}

/** Pacing between the pieces of a split write, so the target reads them separately (not a wait for an answer). */
const SPLIT_PACE_MS = 20;

const paced = () => new Promise<void>((r) => setTimeout(r, SPLIT_PACE_MS));

/** An id for the k-th request of a joined write at step `position`: unique in the sequence. */
function joinedId(theme: IdStyle | undefined, position: number, k: number): RequestId | undefined {
  return theme !== undefined && theme !== 'counter' ? unusualId(theme, 1000 + position * 10 + k) : undefined;
}

/** Send one transport-layer step; what came back (undefined: the step does not apply, and `rec` says why). */
async function runTransportStep(step: TransportStep, i: number, id: RequestId | undefined, session: BaseSession, ctx: SequenceContext, rec: StepRecord): Promise<Exchange[] | undefined> {
  const withId = (method: string, params: Record<string, unknown>, rid: RequestId | undefined) => ({ method, params, ...(rid !== undefined ? { id: rid } : {}) });
  if (step.kind === 'split' || step.kind === 'joined') {
    const stdio = session.transport as Partial<StdioTransport>;
    if (session.kind !== 'stdio' || typeof stdio.holdWrites !== 'function') {
      rec.skipped = `a stdio ${step.kind} write does not apply over ${session.kind}`;
      return undefined;
    }
    if (step.kind === 'split') {
      stdio.holdWrites(1, async ([line], stdin) => {
        const bytes = Buffer.from(line, 'utf8');
        let from = 0;
        for (const at of [...splitOffsets(bytes, step.cuts, step.inChar), bytes.length]) {
          await writeChunk(stdin, bytes.subarray(from, at));
          from = at;
          if (at < bytes.length) await paced();
        }
      });
      rec.sent = withId(step.method, step.params, id);
      return [await session.request(step.method, step.params, { id })];
    }
    const ids = step.requests.map((_, k) => joinedId(ctx.idTheme, i, k));
    stdio.holdWrites(step.requests.length, (lines, stdin) => writeChunk(stdin, lines.join('\n'.repeat(step.blankLines))));
    rec.sent = step.requests.map((q, k) => withId(q.method, q.params, ids[k]));
    const exs = await Promise.all(step.requests.map((q, k) => session.request(q.method, q.params, { id: ids[k] })));
    rec.response = exs.map((e) => e.response);
    return exs;
  }
  if (session.kind !== 'http') {
    rec.skipped = `an HTTP ${step.kind} step does not apply over ${session.kind}`;
    return undefined;
  }
  const headers = step.kind === 'headers' ? headerOverrides(step.variant, step.method) : { Accept: 'text/event-stream, application/json;q=0.5' };
  if (step.kind === 'sse') (session.transport as Partial<HttpTransport>).readNextStreamToEnd?.();
  rec.sent = { ...withId(step.method, step.params, id), headers };
  return [await session.request(step.method, step.params, { id, headers })];
}
