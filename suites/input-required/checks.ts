// mrtr.*: multi round-trip requests, `input_required` (MR26, SEP-2322, IR-01..IR-14), 2026-07-28.
// Oracles judge every InputRequiredResult of the run; the input-required scenario drives flows to
// the end as a capable client and then retries round 1 wrongly on purpose.

import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { duplicateKeys } from '../../protocol/duplicate-keys.js';
import { check, holds, oracle, untestable, violated, type Judgement } from '../kit/check.js';
import { clipJson, errorCode, errorOf, evidence, isObj, outcome, resultOf } from '../kit/exchange.js';
import { every, firstOffenders } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { sentRequest } from '../kit/request-shape.js';
import { capableClientScenario } from './capable-client-scenario.js';
import { isInputRequired, MAX_ROUNDS, type Flow } from './flows.js';

type Obj = Record<string, unknown>;
const ANY = { anyCapability: ['tools', 'prompts', 'resources'] };
const EMBEDDABLE = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** InputRequiredResults the run received for requests mcpspec made in earnest. */
function inputRequired(exchanges: Exchange[], deliberate: (ex: Exchange) => boolean): Exchange[] {
  return exchanges.filter((ex) => isInputRequired(ex) && !!sentRequest(ex) && !deliberate(ex));
}

const NONE_SEEN = 'no request of the run was answered with input_required';

/** IR-02, IR-03: what is wrong with one InputRequiredResult's shape, or undefined. */
export function shapeProblem(r: Obj): string | undefined {
  const hasRequests = 'inputRequests' in r;
  if (!hasRequests && !('requestState' in r)) return 'neither inputRequests nor requestState';
  if ('requestState' in r && typeof r.requestState !== 'string') return 'requestState is not a string';
  if (!hasRequests) return undefined;
  if (!isObj(r.inputRequests)) return 'inputRequests is not an object';
  for (const [key, req] of Object.entries(r.inputRequests)) {
    if (!isObj(req)) return `inputRequests.${key} is not an object`;
    if (typeof req.method !== 'string' || !EMBEDDABLE.has(req.method)) return `inputRequests.${key} has method ${JSON.stringify(req.method)}, not elicitation/create, sampling/createMessage or roots/list`;
    if ('jsonrpc' in req || 'id' in req) return `inputRequests.${key} carries a JSON-RPC envelope (jsonrpc/id)`;
    if ('params' in req && !isObj(req.params)) return `inputRequests.${key}.params is not an object`;
  }
  return undefined;
}

/**
 * IR-03: a key of inputRequests named twice in the text of the answer. The parsed result keeps only
 * the last, so only the recorded text shows that two requests shared a key.
 */
function repeatedInputKey(ex: Exchange, events: readonly WireEvent[]): string | undefined {
  const seqs = new Set(ex.seq);
  const received = events.find((e) => e.dir === 'in' && seqs.has(e.seq) && (e.message === ex.response || (isObj(e.message) && 'result' in e.message && e.message.id === ex.id)));
  if (!received || received.truncated) return undefined;
  // The text of the one message (an SSE event's data on HTTP); a body that is no JSON object has no keys to repeat.
  const repeat = duplicateKeys(received.raw.trim().startsWith('{') ? received.raw : '').find((p) => /^\/result\/inputRequests\/[^/]+$/.test(p));
  return repeat ? `inputRequests names the key ${JSON.stringify(repeat.slice('/result/inputRequests/'.length).replace(/~1/g, '/').replace(/~0/g, '~'))} twice (a parser keeps only the last request)` : undefined;
}

/** IR-04: the client capability an embedded request needs that `declared` lacks, or undefined. */
export function undeclaredNeed(req: Obj, declared: Obj): string | undefined {
  const params = isObj(req.params) ? req.params : {};
  if (req.method === 'elicitation/create') {
    if (!isObj(declared.elicitation)) return 'elicitation';
    const modes = declared.elicitation;
    const mode = params.mode === 'url' ? 'url' : 'form';
    // An empty elicitation object means form mode only.
    if (mode === 'url' && !isObj(modes.url)) return 'elicitation.url';
    if (mode === 'form' && Object.keys(modes).length > 0 && !isObj(modes.form)) return 'elicitation.form';
    return undefined;
  }
  if (req.method === 'sampling/createMessage') {
    if (!isObj(declared.sampling)) return 'sampling';
    if ((Array.isArray(params.tools) || 'toolChoice' in params) && !isObj(declared.sampling.tools)) return 'sampling.tools';
    if (typeof params.includeContext === 'string' && params.includeContext !== 'none' && !isObj(declared.sampling.context)) return 'sampling.context';
    return undefined;
  }
  if (req.method === 'roots/list' && !isObj(declared.roots)) return 'roots';
  return undefined;
}

function declaredOn(ex: Exchange): Obj {
  const meta = sentRequest(ex)?.params?._meta;
  const caps = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObj(caps) ? caps : {};
}

/** Flows whose first round asked for input: the ones the probes ran on. */
const asking = (flows: Flow[]) => flows.filter((f) => isInputRequired(f.rounds[0]));
const decided = (ex: Exchange | undefined): ex is Exchange => !!ex?.response;

function nothingAsked(flows: Flow[], tried: number): Judgement {
  return untestable(tried === 0 ? 'no tool, prompt or resource could be tried' : `none of ${tried} tools, prompts and resources tried answered input_required`);
}

/** A short description of an answer: complete, input_required (keys) or the error. */
function kind(ex: Exchange | undefined): string {
  const r = resultOf(ex);
  if (!r) return outcome(ex);
  if (r.resultType !== 'input_required') return String(r.resultType ?? 'complete');
  const keys = isObj(r.inputRequests) ? Object.keys(r.inputRequests).sort().join(',') : '';
  return `input_required[${keys}]${typeof r.requestState === 'string' ? '+state' : ''}`;
}

export const mrtrChecks = [
  oracle({
    id: 'mrtr.shape',
    title: 'every InputRequiredResult has inputRequests or requestState; inputRequests maps keys (each named once) to elicitation/create, sampling/createMessage or roots/list requests without a JSON-RPC envelope',
    requirements: ['IR-02', 'IR-03'],
    level: 'MUST',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ exchanges, events, deliberate }) {
      const problem = (ex: Exchange) => shapeProblem(resultOf(ex)!) ?? repeatedInputKey(ex, events);
      return every(inputRequired(exchanges, deliberate), {
        none: NONE_SEEN,
        offends: (ex) => problem(ex) !== undefined,
        violated: (bad, seen) => `${bad.length} of ${seen.length} InputRequiredResults are malformed; first (${bad[0].method}): ${problem(bad[0])}`,
        evidence: (ex) => evidence(problem(ex)!, ex, { pointer: '/result' }),
        holds: (seen) => `${seen.length} InputRequiredResults, each with inputRequests or requestState of the allowed kinds`,
      });
    },
  }),
  oracle({
    id: 'mrtr.no-cache-fields',
    title: 'InputRequiredResults carry no ttlMs or cacheScope (they are never cached)',
    requirements: ['IR-14', 'CA-06'],
    level: 'MUST',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.caching26,
    judge({ exchanges, deliberate }) {
      return every(inputRequired(exchanges, deliberate), {
        none: NONE_SEEN,
        offends: (ex) => 'ttlMs' in resultOf(ex)! || 'cacheScope' in resultOf(ex)!,
        violated: (bad, seen) => `${bad.length} of ${seen.length} InputRequiredResults carry cache hints; first: ${bad[0].method}`,
        evidence: (ex) => evidence(`${ex.method} input_required`, ex, { actual: { ttlMs: resultOf(ex)!.ttlMs, cacheScope: resultOf(ex)!.cacheScope }, expected: 'no ttlMs, no cacheScope' }),
        holds: (seen) => `${seen.length} InputRequiredResults without cache hints`,
      });
    },
  }),
  oracle({
    id: 'mrtr.declared-capabilities',
    title: 'an InputRequiredResult asks only for what the request declared: elicitation (form/url), sampling (tools, context), roots',
    requirements: ['IR-04'],
    level: 'MUST',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ exchanges, deliberate }) {
      const seen = inputRequired(exchanges, deliberate);
      if (seen.length === 0) return untestable(NONE_SEEN);
      const bad: Evidence[] = [];
      let embedded = 0;
      for (const ex of seen) {
        const requests = resultOf(ex)!.inputRequests;
        if (!isObj(requests)) continue;
        for (const [key, req] of Object.entries(requests)) {
          if (!isObj(req)) continue;
          embedded++;
          const need = undeclaredNeed(req, declaredOn(ex));
          if (need) bad.push(evidence(`${ex.method}: inputRequests.${key} (${String(req.method)}) needs ${need}, which the request did not declare`, ex, { actual: clipJson(declaredOn(ex)), pointer: `/result/inputRequests/${key}` }));
        }
      }
      if (embedded === 0) return untestable('the InputRequiredResults carried no input requests (requestState only)');
      if (bad.length) return violated(`${bad.length} of ${embedded} input requests need a capability the request did not declare; first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${embedded} input requests, each within the capabilities its request declared`);
    },
  }),
  check(capableClientScenario, {
    id: 'mrtr.retry-served',
    title: 'a correct retry (every requested response, requestState echoed, new id) is answered with a result, complete or input_required, not an error',
    requirements: ['IR-05', 'IR-06', 'IR-07', 'IR-09', 'IR-13'],
    level: 'SHOULD',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ flows, tried }) {
      const multi = flows.filter((f) => f.rounds.length > 1);
      if (multi.length === 0) return nothingAsked(flows, tried);
      return every(multi.flatMap((f) => f.rounds.slice(1).map((ex, i) => ({ f, ex, round: i + 2 }))).filter(({ ex }) => decided(ex)), {
        none: 'no retry was answered in time',
        offends: ({ ex }) => !resultOf(ex),
        violated: (bad, retries) => `${bad.length} of ${retries.length} retries got an error; first: ${bad[0].f.target} round ${bad[0].round} -> ${outcome(bad[0].ex)}`,
        evidence: ({ f, ex, round }) => evidence(`${f.target} round ${round}`, ex, { expected: 'a result (complete or input_required)' }),
        holds: (retries) => {
          const ends = multi.map((f) => f.end);
          const bound = multi.filter((f) => f.end === 'bound').map((f) => f.target);
          const notes = [
            `${ends.filter((e) => e === 'complete').length} completed`,
            bound.length && `${bound.length} still asked for input after ${MAX_ROUNDS} rounds, the bound (${bound.slice(0, 3).join(', ')})`,
            ends.filter((e) => e === 'stopped').length && `${ends.filter((e) => e === 'stopped').length} stopped on an InputRequiredResult with nothing to answer`,
          ].filter(Boolean);
          return `${retries.length} retries over ${multi.length} flows answered with results (${notes.join('; ')}; longest ${Math.max(...multi.map((f) => f.rounds.length))} rounds)`;
        },
      });
    },
  }),
  check(capableClientScenario, {
    id: 'mrtr.missing-response',
    title: 'a retry lacking a response the server needs gets a fresh input_required, not an error',
    requirements: ['IR-10'],
    level: 'SHOULD',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ flows, tried }) {
      return every(asking(flows).filter((f) => decided(f.missing)), {
        none: asking(flows).length ? untestable('no flow asked for input requests that could be left out, or no answer came in time') : nothingAsked(flows, tried),
        offends: (f) => !isInputRequired(f.missing),
        violated: (bad, probes) => `${bad.length} of ${probes.length} retries without the requested responses got ${kind(bad[0].missing)} (${bad[0].target})`,
        evidence: (f) => evidence(`${f.target}: retry without inputResponses`, f.missing, { expected: 'resultType input_required' }),
        holds: (probes) => `${probes.length} retries without the requested responses were asked again`,
      });
    },
  }),
  check(capableClientScenario, {
    id: 'mrtr.malformed-responses',
    title: 'a retry whose inputResponses value is not a result of the requested kind gets -32602',
    requirements: ['IR-10'],
    level: 'SHOULD',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ flows, tried }) {
      return every(asking(flows).filter((f) => decided(f.malformed)), {
        none: asking(flows).length ? untestable('no flow asked for input requests, or no answer came in time') : nothingAsked(flows, tried),
        offends: (f) => errorCode(f.malformed) !== -32602,
        violated: (bad, probes) => `${bad.length} of ${probes.length} malformed inputResponses were not refused with -32602; first: ${bad[0].target} -> ${kind(bad[0].malformed)}`,
        evidence: (f) => evidence(`${f.target}: malformed inputResponses`, f.malformed, { expected: { error: { code: -32602 } } }),
        holds: (probes) => `${probes.length} malformed inputResponses refused with -32602`,
      });
    },
  }),
  check(capableClientScenario, {
    id: 'mrtr.extra-responses-ignored',
    title: 'an inputResponses key the server did not ask for is ignored, not an error',
    requirements: ['IR-10'],
    level: 'SHOULD',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ flows, tried }) {
      return every(asking(flows).filter((f) => decided(f.extra)), {
        none: asking(flows).length ? untestable('no flow asked for input requests, or no answer came in time') : nothingAsked(flows, tried),
        // The same retry without the extra key is round 2: if that one erred too, the extra key is not to blame.
        offends: (f) => !!errorOf(f.extra) && !!resultOf(f.rounds[1]),
        violated: (bad, probes) => `${bad.length} of ${probes.length} retries with an unrequested response got an error; first: ${bad[0].target} -> ${outcome(bad[0].extra)}`,
        evidence: (f) => evidence(`${f.target}: retry with an unrequested inputResponses key`, f.extra, { expected: kind(f.rounds[1]) }),
        holds: (probes) => `${probes.length} retries with an unrequested response were served`,
      });
    },
  }),
  check(capableClientScenario, {
    id: 'mrtr.tampered-state',
    // IR-11 lets state go unprotected when tampering can only fail the request; black-box mcpspec
    // cannot tell, so believing a tampered state is a warning.
    title: 'a retry with an altered requestState is refused, or restarts the flow; it is not believed',
    requirements: ['IR-11', 'IR-12'],
    level: 'SHOULD',
    versions: MODERN,
    requires: ANY,
    spec: SPEC.mrtr26,
    judge({ flows, tried }) {
      return every(asking(flows).filter((f) => decided(f.tampered) && resultOf(f.rounds[1])), {
        none: asking(flows).length ? untestable('no flow with requestState got past its first round') : nothingAsked(flows, tried),
        // Believed: the tampered retry got what the genuine one got, and that was progress past round 1.
        offends: (f) => !!resultOf(f.tampered) && kind(f.tampered) === kind(f.rounds[1]) && kind(f.rounds[1]) !== kind(f.rounds[0]),
        violated: (believed, probes) => `${believed.length} of ${probes.length} retries with a tampered requestState were served as if genuine; first: ${believed[0].target} -> ${kind(believed[0].tampered)}`,
        evidence: (f) => evidence(`${f.target}: requestState altered`, f.tampered, { expected: `an error, or the flow restarted (${kind(f.rounds[0])})` }),
        holds: (probes) => {
          const unclear = probes.filter((f) => kind(f.rounds[1]) === kind(f.rounds[0])).length;
          if (unclear === probes.length) return untestable('every genuine retry got the same answer as the first round, so a believed state cannot be told from a restart');
          return `${probes.length - unclear} tampered requestStates were refused or restarted the flow`;
        },
      });
    },
  }),
  oracle({
    id: 'mrtr.sse-final',
    title: 'Streamable HTTP: nothing follows an InputRequiredResult on its SSE stream',
    requirements: ['IR-15'],
    level: 'MUST',
    versions: MODERN,
    requires: { ...ANY, transports: ['http'] },
    spec: SPEC.mrtr26,
    judge({ exchanges }) {
      const after = (ex: Exchange) => ex.messages.slice(ex.messages.indexOf(ex.response) + 1);
      return every(exchanges.filter((ex) => isInputRequired(ex) && ex.http?.contentType?.toLowerCase().startsWith('text/event-stream')), {
        none: 'no InputRequiredResult came on an SSE stream',
        offends: (ex) => after(ex).length > 0,
        violated: (bad, onSse) => `${bad.length} of ${onSse.length} SSE streams went on after their InputRequiredResult; first (${bad[0].method}): ${after(bad[0]).length} more message(s)`,
        evidence: (ex) => evidence(`${ex.method}: after the InputRequiredResult`, ex, { actual: clipJson(after(ex)), expected: 'the stream ends with the InputRequiredResult' }),
        holds: (onSse) => `${onSse.length} SSE streams ended with their InputRequiredResult`,
      });
    },
  }),
];