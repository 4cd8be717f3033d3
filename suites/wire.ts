import { messages } from '../arbitraries/messages.js';
import { loadSchema } from '../arbitraries/schema-registry.js';
import type { Exchange } from '../runner/session-types.js';
import type { WireEvent } from '../runner/types.js';
import { ALL_VERSIONS, check, holds, MODERN, untestable, violated, type Check, type Evidence } from './check.js';
import { clipJson, isObj } from './exchange.js';
import { SPEC } from './spec-links.js';

/** What the whole run saw: every exchange of every scenario, and the raw wire log. */
export interface RunObs {
  exchanges: Exchange[];
  events: WireEvent[];
  version: string;
  /** Whether mcpspec broke this request on purpose (malformed, near-valid). */
  deliberate?: (ex: Exchange) => boolean;
}

/** The envelope branch a message claims by its shape, for a readable first error. */
function branchOf(msg: unknown): string | undefined {
  if (!isObj(msg)) return undefined;
  if (typeof msg.method === 'string') return 'id' in msg ? 'JSONRPCRequest' : 'JSONRPCNotification';
  if ('result' in msg) return 'JSONRPCResultResponse';
  if ('error' in msg) return 'JSONRPCErrorResponse';
  return undefined;
}

/** A request that names no modern protocolVersion: a dual-era server may answer it by legacy rules. */
function versionless(request: unknown): boolean {
  const meta = isObj(request) && isObj(request.params) ? request.params._meta : undefined;
  return !(isObj(meta) && typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string');
}

function schemaKey(version: string): string {
  return version === '2025-06-18' || version === '2025-11-25' ? version : '2026-07-28';
}

/**
 * JSON-RPC answers a request whose id cannot be read with an error whose id is null; 2025-11-25 and
 * later let the id be absent instead, but the 2025-06-18 schema requires a RequestId on every error.
 * No conforming answer exists there, so such errors are judged with the id set aside.
 */
function idlessErrorTolerated(envelope: (v: unknown) => boolean, msg: unknown): boolean {
  if (!isObj(msg) || !isObj(msg.error) || 'result' in msg) return false;
  if (msg.id !== null && msg.id !== undefined) return false;
  return envelope({ ...msg, id: 0 }) as boolean;
}

/**
 * An error answering a request whose id mcpspec made invalid on purpose (2.5, true) may echo that
 * id: the id was readable, just not allowed. The rest of the error must be valid.
 */
function echoedIdTolerated(obs: RunObs, ex: Exchange, envelope: (v: unknown) => boolean, msg: unknown): boolean {
  if (!obs.deliberate?.(ex) || !isObj(msg) || !isObj(msg.error) || !isObj(ex.request)) return false;
  if (JSON.stringify(msg.id) !== JSON.stringify(ex.request.id)) return false;
  return envelope({ ...msg, id: 0 }) as boolean;
}

/**
 * A request mcpspec broke on purpose so that it names no modern protocolVersion may be answered by
 * legacy rules (no resultType); that is judged by meta.required-keys and robustness checks, not
 * blamed twice here. The answer must still be valid for 2025-11-25.
 */
function legacyAnswerTolerated(obs: RunObs, ex: Exchange, msg: unknown): boolean {
  if (schemaKey(obs.version) !== '2026-07-28' || !obs.deliberate?.(ex) || !versionless(ex.request)) return false;
  return loadSchema('2025-11-25').validator('JSONRPCMessage')(msg) as boolean;
}

/** Validate each inbound message: the envelope, then a result against its method's result type. */
export function wireProblems(obs: RunObs): Evidence[] {
  const key = schemaKey(obs.version);
  const doc = loadSchema(key);
  const envelope = doc.validator('JSONRPCMessage');
  const index = messages(key).index;
  const problems: Evidence[] = [];
  const seen = new Set<unknown>();
  for (const ex of obs.exchanges) {
    for (const msg of ex.messages) {
      if (seen.has(msg)) continue;
      seen.add(msg);
      if (!envelope(msg) && !idlessErrorTolerated(envelope, msg) && !echoedIdTolerated(obs, ex, envelope, msg) && !legacyAnswerTolerated(obs, ex, msg)) {
        const branch = branchOf(msg);
        const detail = branch && doc.definitions().includes(branch) ? doc.validator(branch) : undefined;
        if (detail) detail(msg);
        const e = (detail?.errors ?? envelope.errors)?.[0];
        problems.push({ what: `a message during ${ex.method ?? 'a raw request'} is not a valid JSONRPCMessage`, actual: clipJson(msg), pointer: e?.instancePath, expected: e?.message });
        continue;
      }
      if (msg !== ex.response || !isObj(msg) || !isObj(msg.result) || !ex.method) continue;
      if (legacyAnswerTolerated(obs, ex, msg)) continue;
      const info = index.get(ex.method);
      if (!info?.resultDefinition) continue;
      const def = msg.result.resultType === 'input_required' && doc.definitions().includes('InputRequiredResult') ? 'InputRequiredResult' : info.resultDefinition;
      if (msg.result.resultType === 'task') continue; // tasks extension results are judged by the tasks suite
      const v = doc.validator(def);
      if (!v(msg.result)) {
        const e = v.errors?.[0];
        problems.push({ what: `the ${ex.method} result is not a valid ${def}`, request: clipJson(ex.request), actual: clipJson(msg.result), pointer: `/result${e?.instancePath ?? ''}`, expected: e?.message });
      }
    }
  }
  return problems;
}

export const wireChecks: Check<RunObs>[] = [
  check<RunObs>({
    id: 'wire.schema',
    title: 'every message from the server validates against the JSON Schema of the version in use',
    requirements: ['JR-01', 'JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge(obs) {
      const count = obs.exchanges.reduce((n, ex) => n + ex.messages.length, 0);
      if (count === 0) return untestable('the server sent no message');
      const problems = wireProblems(obs);
      if (problems.length) return violated(`${problems.length} invalid message(s); first: ${problems[0].what} (${problems[0].pointer || '/'}: ${String(problems[0].expected)})`, problems.slice(0, 5));
      return holds(`${count} messages valid against the ${schemaKey(obs.version)} schema`);
    },
  }),
  check<RunObs>({
    id: 'wire.direction',
    title: 'the server sends no JSON-RPC requests (server-to-client needs go through input_required)',
    requirements: ['JR-09', 'IO-04'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.patterns26,
    judge(obs) {
      const requests = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message);
      if (requests.length) return violated(`the server sent ${requests.length} request(s); first: ${String((requests[0].message as { method: string }).method)}`, requests.slice(0, 3).map((e) => ({ what: 'server request', actual: clipJson(e.message) })));
      const inbound = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message').length;
      if (inbound === 0) return untestable('the server sent no message');
      return holds(`${inbound} inbound messages, none a request`);
    },
  }),
  check<RunObs>({
    id: 'stdio.stdout-clean',
    title: 'the server writes only JSON-RPC messages to stdout',
    requirements: ['IO-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    transports: ['stdio'],
    spec: SPEC.stdio26,
    judge(obs) {
      const noise = obs.events.filter((e) => e.channel === 'stdio' && e.kind === 'noise');
      if (noise.length) return violated(`${noise.length} stdout line(s) that are not JSON-RPC messages; first: ${JSON.stringify(noise[0].raw.slice(0, 80))}`, noise.slice(0, 3).map((e) => ({ what: 'stdout line', actual: e.raw.slice(0, 300) })));
      const lines = obs.events.filter((e) => e.channel === 'stdio' && e.dir === 'in').length;
      if (lines === 0) return untestable('nothing was read from stdout');
      return holds(`${lines} stdout lines, all JSON-RPC`);
    },
  }),
  check<RunObs>({
    id: 'stdio.newline-framing',
    title: 'one message per line: no message spans several lines',
    requirements: ['IO-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    transports: ['stdio'],
    spec: SPEC.stdio26,
    judge(obs) {
      const split = obs.events.filter((e) => e.note === 'multi-line-message');
      if (split.length) return violated(`${split.length} message(s) were spread over several lines`, split.slice(0, 3).map((e) => ({ what: 'multi-line message', actual: e.raw.slice(0, 300) })));
      const msgs = obs.events.filter((e) => e.channel === 'stdio' && e.dir === 'in' && e.kind === 'message').length;
      if (msgs === 0) return untestable('no message was read from stdout');
      return holds(`${msgs} messages, one per line`);
    },
  }),
];
