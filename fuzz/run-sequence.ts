// Run one fuzz sequence against a fresh target and judge every step: crash (the process exited or
// the connection was lost), hang (no answer, and no answer to a fence either), an unanswered request,
// an invalid message (the wire.schema oracle's wireProblems), a changed id, an internal error where
// the spec names a code, a notification answered, a near-valid request served as valid.

import type { RequestId } from '../protocol/jsonrpc.js';
import { isModernVersion, type SpecVersion } from '../protocol/versions.js';
import { unusualId, type IdStyle, type ListedRef } from '../arbitraries/sequences.js';
import { isTransportStep, type FuzzStep } from '../arbitraries/fuzz-sequences.js';
import { headerOverrides, multiByteId, NEAR_VALID_HEADER_VARIANTS, REJECTED_HEADER_VARIANTS, splitOffsets, type TransportStep } from '../arbitraries/transport-steps.js';
import { clipJson, errorCode, isObj, resultOf } from '../suites/exchange.js';
import type { Exchange } from '../suites/ports.js';
import { wireProblems } from '../suites/wire.js';
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

export type OracleId = 'crash' | 'hang' | 'unanswered' | 'schema' | 'id-mismatch' | 'internal-error' | 'notification-answered' | 'near-valid-served' | 'sse-open';

export const ORACLES: Record<OracleId, { level: 'MUST' | 'SHOULD'; title: string }> = {
  crash: { level: 'MUST', title: 'the target neither exits nor drops the connection during a session' },
  hang: { level: 'MUST', title: 'the target keeps answering: a request unanswered within the timeout is followed by an answered fence' },
  unanswered: { level: 'MUST', title: 'every request gets a response' },
  schema: { level: 'MUST', title: 'every message from the target validates against the schema of the version in use' },
  'id-mismatch': { level: 'MUST', title: 'every response carries its request id exactly (type and value), and no response answers an unknown id' },
  'internal-error': { level: 'MUST', title: 'a request with invalid params is refused with -32602 (or the code the spec names), not -32603 internal error' },
  'notification-answered': { level: 'MUST', title: 'notifications are never answered' },
  'near-valid-served': { level: 'SHOULD', title: 'a near-valid request (one constraint broken) is refused, not served as valid' },
  'sse-open': { level: 'SHOULD', title: 'an SSE answer stream ends after the response (HL-04, HM-04)' },
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
  const model: SessionModel = { uris: ctx.resources, prompts: ctx.prompts ?? [], templates: ctx.templates ?? [], subscriptions: [], answered: [] };
  try {
    for (let i = 0; i < steps.length; i++) {
      if (ctx.signal?.aborted) break;
      const step = steps[i];
      const mark = recorder.lastSeq();
      const rec: StepRecord = { step };
      records.push(rec);
      const id = idOf(step, i, ctx.idTheme);
      const r = resolve(step, model);
      if (r.skipped) {
        rec.skipped = r.skipped;
        continue;
      }
      let ex: Exchange;
      const withId = (sent: Record<string, unknown>) => ({ ...sent, ...(id !== undefined ? { id } : {}) });
      if (isTransportStep(step)) {
        const stop = await runTransportStep(step, i, id, session, recorder, mark, ctx, observations, rec, r);
        if (stop) break;
        continue;
      }
      if (step.kind === 'raw') {
        const msg = structuredClone(step.message) as Record<string, unknown>;
        // A fresh id unique in the session (of the sequence's id theme), unless the mutation is the id itself.
        const themed = ctx.idTheme !== undefined && ctx.idTheme !== 'counter' ? unusualId(ctx.idTheme, i) : `fuzz-${i}`;
        if (isObj(msg) && 'id' in msg && !step.label.startsWith('/id')) msg.id = themed;
        const readable = isObj(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : undefined;
        rec.sent = msg;
        ex = await session.probe(msg, { expectId: readable, idless: true });
      } else if (step.kind === 'notify') {
        rec.sent = { method: r.method, ...(r.params ? { params: r.params } : {}) };
        ex = await session.notify(r.method!, r.params);
      } else {
        const method = step.kind === 'request' ? step.method : step.kind === 'call' ? 'tools/call' : r.method!;
        const params = step.kind === 'request' ? step.params : step.kind === 'call' ? { name: step.tool, arguments: step.arguments } : r.params!;
        rec.sent = withId({ method, params });
        ex = await session.request(method, params, { id });
      }
      rec.response = ex.response;
      learn(step, isObj(ex.request) ? ex.request : undefined, ex, model);
      const stop = await judge(step, r, i, ex, session, recorder, mark, ctx, observations);
      if (stop) break;
    }
  } finally {
    await session.close().catch(() => undefined);
  }
  return { records, observations, durationMs: Date.now() - started };
}

/** Judge one step; true when the sequence cannot go on (crash, hang). */
async function judge(step: FuzzStep, r: Resolved, i: number, ex: Exchange, session: BaseSession, recorder: Recorder, mark: number, ctx: SequenceContext, out: Observation[]): Promise<boolean> {
  const method = methodOf(step);
  const add = (oracle: OracleId, message: string, evidence: Observation['evidence'] = {}) => out.push({ oracle, method, key: `${oracle}|${method}`, step: i, message, evidence });
  const request = clipJson(ex.request);
  if (ex.aborted) return true;
  if (ex.closed) {
    const how = ex.closed.signal ? `was killed by ${ex.closed.signal}` : ex.closed.exitCode !== undefined && ex.closed.exitCode !== null ? `exited with code ${ex.closed.exitCode}` : 'lost the connection';
    add('crash', `the target ${how} on ${method}`, { request, stderrTail: ex.closed.stderrTail?.slice(-2000) });
    return true;
  }
  // A message without an id is a notification only when it is one otherwise (JSON-RPC 2.0, a method
  // name): an id-less `{}` is an invalid request, and its error answer (id null or none) is due.
  const isNotification = step.kind === 'notify' || (step.kind === 'raw' && isObj(ex.request) && !('id' in ex.request) && ex.request.jsonrpc === '2.0' && typeof ex.request.method === 'string');
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
  // A message without a usable id that is no notification either (`null`, `{}`, `{"id": {}}`): JSON-RPC
  // asks for an error with a null id, but whether such a message is a request at all is unclear, and
  // SDKs drop it: silence is not judged.
  if (ex.response === undefined && step.kind === 'raw' && !(isObj(ex.request) && (typeof ex.request.id === 'string' || typeof ex.request.id === 'number'))) return false;
  if (ex.response === undefined) {
    // A near-valid message whose id cannot be read may be answered with a null id: the transport attributes it (idless).
    add('unanswered', `${method} got no response within ${ctx.timeoutMs} ms (a fence sent after it was answered)`, { request });
    return false;
  }
  const resp = ex.response as Record<string, unknown>;
  if ((typeof sentId === 'string' || typeof sentId === 'number') && resp.id !== sentId && !(r.deliberate && (resp.id === null || resp.id === undefined))) {
    add('id-mismatch', `${method} sent with id ${JSON.stringify(sentId)} was answered with id ${JSON.stringify(resp.id)}`, { request, expected: sentId, actual: resp.id });
  }
  const problems = wireProblems({ exchanges: [ex], events: [], version: ctx.version, transport: session.kind, deliberate: () => r.deliberate });
  if (problems.length) add('schema', `${problems[0].what}${problems[0].pointer ? ` at ${problems[0].pointer}` : ''}: ${String(problems[0].expected)}`, { request, actual: problems[0].actual, expected: problems[0].expected });
  if (step.kind === 'sse' && (ex as { sseRead?: string }).sseRead === 'open') {
    add('sse-open', `the SSE answer to ${method} stayed open for ${ctx.timeoutMs} ms after the response (HL-04 / HM-04: the server should end the stream after the response)`, { request });
  }
  if (step.kind === 'headers') {
    // Only where the spec prescribes the rejection (HL-08, HM-06, HM-08): a served result is a warning.
    const rule = REJECTED_HEADER_VARIANTS[step.variant];
    const ids = rule ? (isModernVersion(ctx.version) ? rule.modern : rule.legacy) : undefined;
    if (rule && ids && resultOf(ex)) add('near-valid-served', `${step.method} with headers ${step.variant} was served as valid (${ids.join(', ')}: ${rule.why})`, { request, actual: clipJson(resp), expected: { status: 400 } });
    return false;
  }
  if (r.deliberate) {
    const code = errorCode(ex);
    if (code === -32603) add('internal-error', `${method} with invalid params got -32603 internal error; the spec names -32602 for invalid params`, { request, actual: clipJson(resp) });
    const result = resultOf(ex);
    if (result && !(step.kind === 'call' && result.isError === true)) {
      add('near-valid-served', `${method} near-valid (${step.kind === 'raw' ? step.label : r.label ?? (step as { label?: string }).label ?? 'invalid arguments'}) was served as valid`, { request, actual: clipJson(resp) });
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

/** Send one transport-layer step and judge what came back; true when the sequence cannot go on. */
async function runTransportStep(
  step: TransportStep,
  i: number,
  id: RequestId | undefined,
  session: BaseSession,
  recorder: Recorder,
  mark: number,
  ctx: SequenceContext,
  out: Observation[],
  rec: StepRecord,
  r: Resolved,
): Promise<boolean> {
  const withId = (method: string, params: Record<string, unknown>, rid: RequestId | undefined) => ({ method, params, ...(rid !== undefined ? { id: rid } : {}) });
  if (step.kind === 'split' || step.kind === 'joined') {
    const stdio = session.transport as Partial<StdioTransport>;
    if (session.kind !== 'stdio' || typeof stdio.holdWrites !== 'function') {
      rec.skipped = `a stdio ${step.kind} write does not apply over ${session.kind}`;
      return false;
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
      const ex = await session.request(step.method, step.params, { id });
      rec.response = ex.response;
      return judge(step, r, i, ex, session, recorder, mark, ctx, out);
    }
    const ids = step.requests.map((_, k) => joinedId(ctx.idTheme, i, k));
    stdio.holdWrites(step.requests.length, (lines, stdin) => writeChunk(stdin, lines.join('\n'.repeat(step.blankLines))));
    rec.sent = step.requests.map((q, k) => withId(q.method, q.params, ids[k]));
    const exs = await Promise.all(step.requests.map((q, k) => session.request(q.method, q.params, { id: ids[k] })));
    rec.response = exs.map((e) => e.response);
    for (const ex of exs) if (await judge(step, r, i, ex, session, recorder, mark, ctx, out)) return true;
    return false;
  }
  if (session.kind !== 'http') {
    rec.skipped = `an HTTP ${step.kind} step does not apply over ${session.kind}`;
    return false;
  }
  const headers = step.kind === 'headers' ? headerOverrides(step.variant, step.method) : { Accept: 'text/event-stream, application/json;q=0.5' };
  if (step.kind === 'sse') (session.transport as Partial<HttpTransport>).readNextStreamToEnd?.();
  rec.sent = { ...withId(step.method, step.params, id), headers };
  const ex = await session.request(step.method, step.params, { id, headers });
  rec.response = ex.response;
  return judge(step, r, i, ex, session, recorder, mark, ctx, out);
}
