// jsonrpc.*: JSON-RPC 2.0 rules as MCP uses them (B26 "Messages", JR-01..JR-08).

import { idMatch, isResponse, responseId } from '../../protocol/jsonrpc.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { clip, errorCode, evidence, expectErrorCode, isObj, oneOfEachFirst, outcome, unanswerable } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { namesVersion, sentRequest } from '../kit/request-shape.js';
import { every } from '../kit/judge.js';
import { jsonRpcScenario, type Case } from './jsonrpc-scenario.js';

const answered = (c: Case) => !unanswerable(c.exchange);

/** The codes of the MCP range (-32020..-32099) 2026-07-28 defines; any other there is unassigned. */
const MCP_CODES = new Set([-32020, -32021, -32022]);

/** Why a 2026-07-28 server may not send this error code, or undefined. */
export function retiredOrUnassigned(code: number): string | undefined {
  if (code === -32042) return '-32042 (URLElicitationRequired) is retired in 2026-07-28: a URL elicitation is an input_required request';
  if (code === -32002) return '-32002 (resource not found) is retired in 2026-07-28: an unknown resource is -32602';
  if (code <= -32020 && code >= -32099 && !MCP_CODES.has(code)) return `${code} lies in the range reserved for the MCP spec (-32020..-32099), which defines no such code`;
  return undefined;
}

export const jsonrpcChecks = [
  oracle({
    id: 'jsonrpc.error-codes',
    title: 'no error carries a retired code (-32002, -32042) or a code of the MCP range (-32020..-32099) the spec does not define',
    requirements: ['IR-16', 'RS-01'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges }) {
      // A legacy session's answers (a dual-era server probed for versions) follow the legacy registry.
      const problem = (ex: Exchange) => retiredOrUnassigned(errorCode(ex)!);
      return every(exchanges.filter((ex) => typeof errorCode(ex) === 'number' && namesVersion(ex.request)), {
        none: 'no 2026-07-28 request of the run got an error',
        offends: (ex) => problem(ex) !== undefined,
        violated: (bad, errors) => `${bad.length} of ${errors.length} errors carry a code 2026-07-28 does not allow; first (${bad[0].method ?? 'a request'}): ${problem(bad[0])}`,
        evidence: (ex) => evidence(`${ex.method ?? 'a request'}: ${problem(ex)}`, ex, { pointer: '/error/code' }),
        holds: (errors) => `${errors.length} errors, codes ${[...new Set(errors.map((ex) => errorCode(ex)))].sort((a, b) => b! - a!).join(', ')}, none retired or unassigned`,
      });
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.parse-error',
    title: 'unparseable JSON gets -32700, without a request id',
    requirements: ['JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ parseError }) {
      if (unanswerable(parseError)) return untestable('the run ended before an answer could come');
      const code = errorCode(parseError);
      if (code !== -32700) return violated(`a truncated JSON text got ${outcome(parseError)}`, [evidence('malformed JSON', parseError, { expected: { error: { code: -32700 }, id: 'absent or null' } })]);
      const id = (parseError.response as Record<string, unknown>).id;
      if (id !== undefined && id !== null) return violated(`the parse error carries id ${JSON.stringify(id)}, which could not have been read`, [evidence('malformed JSON', parseError)]);
      return holds('-32700');
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.invalid-request',
    title: 'invalid request objects are refused with -32600',
    requirements: ['JR-02', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ invalid }) {
      const judged = invalid.filter(answered);
      if (judged.length === 0) return untestable('the run ended before any answer could come');
      const bad = judged.filter((c) => errorCode(c.exchange) !== -32600);
      if (bad.length) return violated(bad.map((c) => `${c.name}: ${outcome(c.exchange)}`).join('; '), bad.map((c) => evidence(c.name, c.exchange, { expected: { error: { code: -32600 } } })));
      return holds(`${judged.length} invalid requests got -32600`);
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.batch',
    title: 'a JSON-RPC batch array is refused with an error, not served (batching left MCP in 2025-06-18)',
    requirements: ['JR-08'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ batch }) {
      if (unanswerable(batch)) return untestable('the run ended before an answer could come');
      // The code is not fixed by the spec (-32600 is usual); serving the batch is what is judged.
      const served = Array.isArray(batch.response) || (isObj(batch.response) && 'result' in batch.response) || batch.messages.some((m) => Array.isArray(m) || (isObj(m) && 'result' in m));
      if (served || errorCode(batch) === undefined) return violated(`a batch of two requests was ${served ? 'served' : `not refused: ${outcome(batch)}`}`, [evidence('batch', batch, { expected: 'one error response' })]);
      return holds(`refused with error ${errorCode(batch)}`);
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.method-not-found',
    title: 'an unknown method gets -32601',
    requirements: ['VN-07'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ unknownMethod }) {
      if (unanswerable(unknownMethod)) return untestable('the run ended before an answer could come');
      return expectErrorCode(unknownMethod, -32601, 'mcpspec/no-such-method');
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.notification-no-response',
    title: 'notifications are never answered',
    requirements: ['JR-07'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ notifications }) {
      const answeredOnes = notifications.filter((c) => c.exchange.response !== undefined || c.exchange.messages.some((m) => isObj(m) && ('result' in m || 'error' in m)));
      if (answeredOnes.length) return violated(`answered: ${answeredOnes.map((c) => c.name).join(', ')}`, answeredOnes.map((c) => evidence(c.name, c.exchange, { actual: c.exchange.response ?? c.exchange.messages[0], expected: 'no response' })));
      if (notifications.some((c) => c.exchange.closed)) return untestable('the target exited while the notifications were sent');
      // No answer proves nothing unless a later request was answered meanwhile (the fence).
      if (notifications.some((c) => c.exchange.timedOut || c.exchange.aborted)) return untestable('the request sent after the notifications was not answered either, so silence proves nothing');
      return holds(`${notifications.length} notifications, no response (a later request on the same connection was answered first)`);
    },
  }),
  check(jsonRpcScenario, {
    id: 'jsonrpc.params-type',
    title: 'params of the wrong JSON type get an error (-32602 or -32600)',
    requirements: ['JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ paramsType }) {
      const judged = paramsType.filter(answered);
      if (judged.length === 0) return untestable('the run ended before any answer could come');
      const bad = judged.filter((c) => ![-32602, -32600].includes(errorCode(c.exchange) ?? 0));
      if (bad.length) return violated(bad.map((c) => `${c.name}: ${outcome(c.exchange)}`).join('; '), bad.map((c) => evidence(c.name, c.exchange, { expected: { error: { code: '-32602 or -32600' } } })));
      return holds('array and string params were refused');
    },
  }),
  oracle({
    id: 'jsonrpc.id-echo',
    title: 'every response echoes its request id exactly, with its JSON type, and answers a request that was sent',
    requirements: ['JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ exchanges, events, deliberate }) {
      const bad: Evidence[] = [];
      let judged = 0;
      for (const ex of exchanges) {
        const sent = ex.request;
        if (!isObj(sent) || !(typeof sent.id === 'string' || typeof sent.id === 'number')) continue;
        // HTTP: everything on a POST's answer belongs to that request, so a response there with
        // another id is a changed id too (stdio notes such answers as unmatched, below).
        let answers = 0;
        for (const m of ex.http ? ex.messages : []) {
          const id = responseId(m);
          if (isResponse(m) && id !== undefined && idMatch(id, sent.id) !== 'none' && ++answers === 2) {
            // One request, one response (JR-04): a second one on the same answer stream is as wrong as a changed id.
            bad.push(evidence(`a second response with id ${JSON.stringify(id)} on the HTTP answer to it`, ex, { pointer: '/id', expected: 'one response', actual: m }));
          }
          if (m === ex.response || !isResponse(m) || id === undefined || idMatch(id, sent.id) !== 'none') continue;
          bad.push(evidence(`a response with id ${JSON.stringify(id)} on the HTTP answer to id ${JSON.stringify(sent.id)}`, ex, { pointer: '/id', expected: sent.id, actual: id }));
        }
        if (!isObj(ex.response)) continue;
        const got = ex.response.id;
        // Malformed input may be answered without an id (the id may not have been readable): a parse error or an
        // invalid request. A request whose envelope was sound had a readable id: any other error echoes it.
        // A refusal of the HTTP request itself (403 for a bad Origin, 401, 404, 406, 415, a 400 with the generic
        // -32000 for a missing session or header) is the transport's answer, given before the message is read;
        // its JSON-RPC error body may have no id (HM-13 says so for Origin). A 400 carrying a specific error
        // (-32602, -32022, ...) judged the request itself, whose id was read, so it is judged.
        const status = ex.http?.status ?? 0;
        const code = errorCode(ex);
        if ((got === undefined || got === null) && (status > 400 || (status === 400 && (code === undefined || code === -32000)))) continue;
        if ((got === undefined || got === null) && deliberate(ex) && (!soundEnvelope(sent) || UNREADABLE_ID_CODES.has(Number(errorCode(ex))) || errorCode(ex) === undefined)) continue;
        judged++;
        if (got !== sent.id) bad.push(evidence(`id ${JSON.stringify(sent.id)}`, ex, { pointer: '/id', expected: sent.id, actual: got }));
      }
      for (const e of events) {
        if (e.note === 'unmatched-response' && e.data?.late !== true) {
          // A request gets one response (JR-04): a second one with its id is as wrong as an unknown id.
          const what = e.data?.again === true ? `a second response with id ${JSON.stringify(e.data.id)} (its request was answered already)` : 'a response whose id matches no request mcpspec sent';
          bad.push({ what, actual: e.message, seq: [e.seq] });
        }
      }
      if (bad.length) {
        const first = bad[0];
        const seen = first.expected === undefined ? clip(JSON.stringify(first.actual) ?? '', 200) : `expected ${JSON.stringify(first.expected)}, got ${JSON.stringify(first.actual)}`;
        return violated(`${bad.length} response(s) with a changed or unknown id, or a second one; first: ${first.what}: ${seen}`, bad.slice(0, 5));
      }
      if (judged === 0) return untestable('no response to a request with an id was received');
      return holds(`${judged} responses echoed their request ids exactly (strings with spaces and non-ASCII, large and zero integers among them)`);
    },
  }),
  oracle({
    id: 'jsonrpc.answers-requests',
    title: 'every well-formed request gets a response before its timeout (a request is never met with silence while later ones are answered)',
    requirements: ['JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ exchanges, events, deliberate }) {
      // Judged only once the whole timeout passed; what mcpspec gave up on or cancelled, what broke
      // with the connection, and requests that may rightly stay open (a listen stream, a blocking
      // tasks/result, a tool call, which can be slow by design) are not judged here.
      const judgedHere = exchanges.filter((ex) => {
        const req = sentRequest(ex);
        // A request broken on purpose still has to be answered (with an error) where its envelope is sound.
        return req && (!deliberate(ex) || soundEnvelope(ex.request)) && !ex.aborted && !ex.closed && !ex.streamBroken && !ex.ambiguous && !MAY_STAY_OPEN.has(req.method);
      });
      if (judgedHere.length === 0) return untestable('no well-formed request was sent');
      // Silence is the server's only where it kept answering meanwhile (a request sent later was
      // answered before this one's timeout ran out, or one sent once it had run out, the liveness
      // fence, was) and this one was never answered, not even late: an answer after the timeout is an
      // answer (JR-04), and whether a slow request beats the timeout depends on the machine's load.
      // Same connection only: a server process that hung (a finding of its own) is not judged here.
      const sourceOf = new Map(events.map((e) => [e.seq, e.source]));
      const session = (ex: (typeof judgedHere)[number]) => sourceOf.get(ex.seq[0]);
      const answeredAt = judgedHere.filter((ex) => ex.response !== undefined).map((ex) => ({ session: session(ex), sent: ex.startedAt, at: ex.startedAt + ex.elapsedMs }));
      const answeredLate = (ex: Exchange) => {
        const id = JSON.stringify((ex.request as Record<string, unknown>).id);
        return events.some((e) => e.seq > ex.seq[0] && e.source === session(ex) && e.dir === 'in' && isObj(e.message) && !('method' in e.message) && JSON.stringify(e.message.id) === id);
      };
      const keptAnswering = (ex: Exchange) => {
        const deadline = ex.startedAt + ex.timeoutMs;
        const mine = answeredAt.filter((a) => a.session === session(ex) && a.sent > ex.startedAt);
        return (mine.some((a) => a.at < deadline) || mine.some((a) => a.sent >= deadline)) && !answeredLate(ex);
      };
      const silent = judgedHere.filter((ex) => ex.timedOut && ex.response === undefined && keptAnswering(ex));
      // Each kind of silence (method, and whether mcpspec broke the request on purpose) shows before repeats.
      const kindOfSilence = (ex: Exchange) => `${sentRequest(ex)!.method}${deliberate(ex) ? ' (a request broken on purpose)' : ''}`;
      if (silent.length) {
        const by = [...new Set(silent.map((ex) => sentRequest(ex)!.method))].join(', ');
        return violated(`${silent.length} of ${judgedHere.length} well-formed requests got no response within their timeout (${by})`, oneOfEachFirst(silent, kindOfSilence, 5).map((ex) => evidence(`${kindOfSilence(ex)}: no response within ${ex.timeoutMs} ms`, ex, { expected: 'a JSON-RPC response with the request id' })));
      }
      return holds(`${judgedHere.length} well-formed requests, each answered`);
    },
  }),
];

/** The codes of errors answered to a message whose id may not have been readable. */
const UNREADABLE_ID_CODES = new Set([-32700, -32600]);

/** A request whose envelope (jsonrpc, id, method) is sound, whatever is wrong with its params. */
function soundEnvelope(m: unknown): boolean {
  return isObj(m) && m.jsonrpc === '2.0' && (typeof m.id === 'string' || Number.isInteger(m.id)) && typeof m.method === 'string';
}

/** Requests whose answer may rightly take longer than any timeout. */
const MAY_STAY_OPEN = new Set(['subscriptions/listen', 'tasks/result', 'tools/call']);
