// wire.*: invariants over every message the server sent in the run (§16 of the requirements
// digest): schema validity, direction, resultType values and where each may appear.

import { messages } from '../../arbitraries/messages.js';
import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { clipJson, isObj, oneOfEachFirst, resultOf } from '../kit/exchange.js';
import type { RunObservations } from '../kit/observations.js';
import type { Exchange } from '../ports/session.js';
import { namesVersion, sentRequest } from '../kit/request-shape.js';
import { firstOffenders } from '../kit/judge.js';

type RunObs = RunObservations;

/** The envelope branch a message claims by its shape, for a readable first error. */
function branchOf(msg: unknown): string | undefined {
  if (!isObj(msg)) return undefined;
  if (typeof msg.method === 'string') return 'id' in msg ? 'JSONRPCRequest' : 'JSONRPCNotification';
  if ('result' in msg) return 'JSONRPCResultResponse';
  if ('error' in msg) return 'JSONRPCErrorResponse';
  return undefined;
}

/** A request that names no modern protocolVersion: a dual-era server may answer it by legacy rules. */
const versionless = (request: unknown): boolean => !namesVersion(request);

const schemaKey = (version: string): string => version;

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
  if (!obs.deliberate(ex) || !isObj(msg) || !isObj(msg.error) || !isObj(ex.request)) return false;
  if (JSON.stringify(msg.id) !== JSON.stringify(ex.request.id)) return false;
  return envelope({ ...msg, id: 0 }) as boolean;
}

/**
 * A request mcpspec broke on purpose so that it names no modern protocolVersion may be answered by
 * legacy rules (no resultType); that is judged by meta.required-keys and robustness checks, not
 * blamed twice here. The answer must still be valid for 2025-11-25.
 */
function legacyAnswerTolerated(obs: RunObs, ex: Exchange, msg: unknown): boolean {
  if (schemaKey(obs.version) !== '2026-07-28' || !obs.deliberate(ex) || !versionless(ex.request)) return false;
  return loadSchema('2025-11-25').validator('JSONRPCMessage')(msg) as boolean;
}

/** Validate each inbound message: the envelope, then a result against its method's result type. */
/** The recording positions of an exchange, for evidence (what the report and the fuzzer point at). */
const seqOf = (ex: Exchange | undefined): { seq?: number[] } => (ex?.seq.length ? { seq: ex.seq.slice(0, 20) } : {});

export function wireProblems(obs: RunObs): Evidence[] {
  const key = schemaKey(obs.version);
  const doc = loadSchema(key);
  const envelope = doc.validator('JSONRPCMessage');
  const index = messages(key).index;
  const problems: Evidence[] = [];
  const seen = new Set<unknown>();
  const fromExchanges = new Set<unknown>();
  for (const ex of obs.exchanges) for (const m of ex.messages) fromExchanges.add(m);
  // Messages no exchange claimed (unsolicited, late, unmatched) are judged on their own.
  const strays = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message' && e.message !== undefined && !fromExchanges.has(e.message)).map((e) => e.message);
  const all: [Exchange | undefined, unknown[]][] = [...obs.exchanges.map((ex) => [ex, ex.messages] as [Exchange, unknown[]]), [undefined, strays]];
  // HTTP bodies and SSE events that are JSON shaped like a message but lack "jsonrpc" (stdio has stdio.stdout-clean for these).
  for (const e of obs.events) {
    if (e.dir !== 'in' || e.channel !== 'http' || e.kind === 'message' || !isObj(e.message) || 'jsonrpc' in e.message) continue;
    if (!('result' in e.message || 'error' in e.message || 'method' in e.message)) continue;
    problems.push({ what: 'an answer that is not a JSON-RPC 2.0 message (no "jsonrpc": "2.0")', actual: clipJson(e.message), pointer: '/jsonrpc', expected: '"2.0"', seq: [e.seq] });
  }
  for (const [ex, msgs] of all) {
    for (const msg of msgs) {
      if (Array.isArray(msg)) continue; // a batch answer: judged by jsonrpc.batch (and stdio.stdout-clean)
      if (seen.has(msg)) continue;
      seen.add(msg);
      // JSON-RPC 2.0: a response has result or error, never both (the schemas allow extra members).
      if (isObj(msg) && 'result' in msg && 'error' in msg) {
        problems.push({ what: `a response ${ex ? `during ${ex.method ?? 'a raw request'}` : 'that answered nothing mcpspec sent'} carries both result and error`, actual: clipJson(msg), pointer: '', expected: 'result or error, not both', ...seqOf(ex) });
        continue;
      }
      if (!envelope(msg) && !idlessErrorTolerated(envelope, msg) && !(ex && echoedIdTolerated(obs, ex, envelope, msg)) && !(ex && legacyAnswerTolerated(obs, ex, msg))) {
        const branch = branchOf(msg);
        const detail = branch && doc.definitions().includes(branch) ? doc.validator(branch) : undefined;
        if (detail) detail(msg);
        const e = (detail?.errors ?? envelope.errors)?.[0];
        problems.push({ what: `a message ${ex ? `during ${ex.method ?? 'a raw request'}` : 'that answered nothing mcpspec sent'} is not a valid JSONRPCMessage`, actual: clipJson(msg), pointer: e?.instancePath, expected: e?.message, ...seqOf(ex) });
        continue;
      }
      if (!ex || msg !== ex.response || !isObj(msg) || !isObj(msg.result) || !ex.method) continue;
      if (legacyAnswerTolerated(obs, ex, msg)) continue;
      const info = index.get(ex.method);
      if (!info?.resultDefinition) continue;
      let def = msg.result.resultType === 'input_required' && doc.definitions().includes('InputRequiredResult') ? 'InputRequiredResult' : info.resultDefinition;
      // A task-augmented call (2025-11-25 tasks) is answered with a CreateTaskResult (TA-07).
      if (ex.method === 'tools/call' && isObj(msg.result.task) && isObj(ex.request) && isObj(ex.request.params) && isObj(ex.request.params.task) && doc.definitions().includes('CreateTaskResult')) def = 'CreateTaskResult';
      if (msg.result.resultType === 'task') continue; // tasks extension results are judged by the tasks suite
      const v = doc.validator(def);
      if (!v(msg.result)) {
        const e = v.errors?.[0];
        problems.push({ what: `the ${ex.method} result is not a valid ${def}`, request: clipJson(ex.request), actual: clipJson(msg.result), pointer: `/result${e?.instancePath ?? ''}`, expected: e?.message, ...seqOf(ex) });
      }
    }
  }
  return problems;
}


/** Whether a request declared the tasks extension in its own clientCapabilities (TB-01, TB-03). */
function declaredTasks(request: unknown): boolean {
  const meta = isObj(request) && isObj(request.params) ? request.params._meta : undefined;
  const caps = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObj(caps) && isObj(caps.extensions) && 'io.modelcontextprotocol/tasks' in caps.extensions;
}

const INPUT_REQUIRED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** resultType problems of one answered request (RT-01, RT-03, RT-06, IR-01, TB-03, TB-05). */
function resultTypeProblem(ex: Exchange): string | undefined {
  const req = sentRequest(ex);
  const r = resultOf(ex);
  if (!req || !r) return undefined;
  const t = r.resultType;
  if (typeof t !== 'string') return `${req.method}: no resultType`;
  if (t === 'complete') return undefined;
  if (t === 'input_required') return INPUT_REQUIRED_METHODS.has(req.method) ? undefined : `${req.method}: resultType "input_required", which only tools/call, prompts/get and resources/read may return`;
  if (t === 'task') {
    if (req.method !== 'tools/call') return `${req.method}: resultType "task", which only tools/call may return`;
    return declaredTasks(ex.request) ? undefined : `${req.method}: resultType "task" to a request that did not declare the tasks extension`;
  }
  return `${req.method}: unknown resultType ${JSON.stringify(t)}`;
}

export const wireChecks = [
  oracle({
    id: 'wire.schema',
    title: 'every message from the server validates against the JSON Schema of the version in use',
    requirements: ['JR-01', 'JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge(obs) {
      const count = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message').length;
      if (count === 0) return untestable('the server sent no message');
      const problems = wireProblems(obs);
      if (problems.length) {
        // One piece of evidence per kind of problem first (what is wrong where), then repeats: thirteen
        // copies of one broken initialize result must not hide a single broken prompts/get result.
        const kinds = new Map<string, Evidence>();
        for (const p of problems) {
          const kind = `${p.what} ${p.pointer ?? ''}`.replace(/\d+/g, '#');
          if (!kinds.has(kind)) kinds.set(kind, p);
        }
        const distinct = [...kinds.values()];
        const evidenceList = [...distinct.slice(0, 8), ...problems.filter((p) => !distinct.includes(p))].slice(0, Math.max(5, Math.min(distinct.length, 8)));
        return violated(`${problems.length} invalid message(s) of ${kinds.size} kind(s); first: ${problems[0].what} (${problems[0].pointer || '/'}: ${String(problems[0].expected)})`, evidenceList);
      }
      return holds(`${count} messages valid against the ${schemaKey(obs.version)} schema`);
    },
  }),
  oracle({
    id: 'wire.direction',
    title: 'the server sends no JSON-RPC requests (server-to-client needs go through input_required)',
    requirements: ['JR-09', 'IO-04', 'HM-04'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.patterns26,
    judge(obs) {
      const requests = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message);
      if (requests.length) return violated(`the server sent ${requests.length} request(s); first: ${String((requests[0].message as { method: string }).method)}`, firstOffenders(requests).map((e) => ({ what: 'server request', actual: clipJson(e.message), seq: [e.seq] })));
      const inbound = obs.events.filter((e) => e.dir === 'in' && e.kind === 'message').length;
      if (inbound === 0) return untestable('the server sent no message');
      return holds(`${inbound} inbound messages, none a request`);
    },
  }),
  oracle({
    id: 'wire.result-type',
    title: 'every result carries a resultType the request allows: complete, input_required only on tools/call, prompts/get and resources/read, task only where the tasks extension was declared',
    requirements: ['RT-01', 'JR-05', 'RT-06', 'IR-01', 'TB-03'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge(obs) {
      // Requests mcpspec broke so that they name no modern version may be answered by legacy rules:
      // meta.required-keys judges those.
      const answered = obs.exchanges.filter((ex) => sentRequest(ex) && resultOf(ex) && !(obs.deliberate(ex) && versionless(ex.request)));
      if (answered.length === 0) return untestable('no request of the run got a result');
      const bad = answered.map((ex) => [ex, resultTypeProblem(ex)] as const).filter(([, p]) => p) as [Exchange, string][];
      if (bad.length) return violated(`${bad.length} of ${answered.length} results have a resultType the request does not allow; first: ${bad[0][1]}`, oneOfEachFirst(bad, ([, p]) => p).map(([ex, p]) => ({ what: p, request: clipJson(ex.request), actual: clipJson(resultOf(ex)), pointer: '/result/resultType', seq: ex.seq.slice(0, 4) })));
      const kinds = [...new Set(answered.map((ex) => String(resultOf(ex)!.resultType)))].join(', ');
      return holds(`${answered.length} results, resultType ${kinds}, each allowed for its request`);
    },
  }),
];
