// cancel.*: cancellation of a request in flight (2025-11-25 basic/utilities/cancellation; CN-01,
// CN-04): the receiver should not answer a cancelled request, and keeps serving. 2026-07-28 (CN-02,
// CN-03): after notifications/cancelled (stdio) or the request's stream closed (HTTP) the server
// MUST NOT send anything more for the request, and keeps serving.

import { isObj } from '../../protocol/jsonrpc.js';
import { SPEC } from '../../protocol/spec-links.js';
import { LEGACY, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { check, holds, oracle, untestable, violated, type Judgement } from '../kit/check.js';
import { clipJson, evidence, outcome } from '../kit/exchange.js';
import { firstOffenders } from '../kit/judge.js';
import { GAVE_UP_REASON } from '../ports/session.js';
import { modernCancelScenario, reportsCancellation, type ModernCancelObs } from './modern-scenario.js';
import { capableClientScenario } from '../input-required/capable-client-scenario.js';

export const cancelChecks = [
  check(capableClientScenario, {
    id: 'cancel.silent-after',
    title: 'a call cancelled while the server waits for the client gets no response, and the server keeps serving',
    requirements: ['CN-04', 'CN-01'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { anyCapability: ['tools', 'prompts', 'resources'] },
    spec: SPEC.cancellation25,
    judge({ cancel, calls }) {
      if (!cancel) return untestable(calls.some((c) => c.asked.length > 0) ? 'the call that asked the client something before did not ask again' : 'no call was in flight long enough to cancel: none made the server ask the client anything');
      const last = cancel.fences[cancel.fences.length - 1];
      if (cancel.call.response !== undefined) return violated(`${cancel.target}, cancelled while the server waited for ${cancel.asked}, was still answered`, [evidence(`${cancel.target} (cancelled)`, cancel.call, { expected: 'no response after notifications/cancelled' })]);
      if (!last.response) return violated(`after the cancellation of ${cancel.target} the server stopped answering: ${outcome(last)}`, [evidence('fence after the cancellation', last)]);
      return holds(`${cancel.target}, cancelled while the server waited for ${cancel.asked}, got no response; the server answered ${cancel.fences.length} fence request(s) after`);
    },
  }),
  check(modernCancelScenario, {
    id: 'cancel.modern-silent',
    title: 'stdio, 2026-07-28: after notifications/cancelled for a call in progress, nothing more comes for it, and the server keeps serving',
    requirements: ['CN-02', 'CN-03'],
    level: 'MUST',
    versions: MODERN,
    requires: { capabilities: ['tools'], transports: ['stdio'] },
    spec: SPEC.stdio26,
    judge: (obs) => judgeModernCancel(obs),
  }),
  check(modernCancelScenario, {
    id: 'cancel.modern-disconnect',
    title: 'Streamable HTTP, 2026-07-28: closing the stream of a call in progress cancels it; the server keeps serving',
    requirements: ['CN-02', 'CN-03'],
    level: 'MUST',
    versions: MODERN,
    requires: { capabilities: ['tools'], transports: ['http'] },
    spec: SPEC.http26,
    judge: (obs) => judgeModernCancel(obs),
  }),
  oracle({
    id: 'cancel.server-references',
    title: 'legacy: a notifications/cancelled from the server names a request the server itself sent and has not had answered',
    requirements: ['CN-01'],
    level: 'MUST',
    versions: LEGACY,
    spec: SPEC.cancellation25,
    judge({ events }) {
      const cancels = events.filter((e) => e.dir === 'in' && isObj(e.message) && e.message.method === 'notifications/cancelled' && !('id' in e.message));
      if (cancels.length === 0) return untestable('the server cancelled nothing');
      const bad: Evidence[] = [];
      for (const c of cancels) {
        const params = (c.message as Record<string, unknown>).params;
        const id = JSON.stringify(isObj(params) ? params.requestId : undefined);
        const before = events.filter((e) => e.seq < c.seq && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message && JSON.stringify(e.message.id) === id);
        if (before.some((e) => e.dir === 'in')) continue; // a request the server sent: the same direction
        const theirs = before.find((e) => e.dir === 'out');
        bad.push({ what: `notifications/cancelled for ${id}: ${theirs ? `names mcpspec's ${String((theirs.message as Record<string, unknown>).method)}, a request of the other direction` : 'the server sent no request with that id'}`, actual: clipJson(c.message, 400), seq: [...(theirs ? [theirs.seq] : []), c.seq] });
      }
      if (bad.length) return violated(`${bad.length} of ${cancels.length} cancellations from the server name what they may not; first: ${bad[0].what}`, bad.slice(0, 4));
      return holds(`${cancels.length} cancellation(s) from the server, each of a request it had sent`);
    },
  }),
  oracle({
    id: 'cancel.modern-server-references',
    title: '2026-07-28: a server sends notifications/cancelled only on stdio, and only naming a subscriptions/listen the client opened on that connection (ending that subscription); over Streamable HTTP never',
    requirements: ['CN-01', 'SB-08'],
    level: 'MUST',
    versions: MODERN,
    // The 2026-07-28 schema: "On stdio, the server also sends this notification, solely to terminate a
    // subscriptions/listen stream [...] Servers MUST NOT use this notification to cancel any other
    // request." Over Streamable HTTP a server ends a stream by closing it.
    spec: SPEC.stdio26,
    judge({ events }, { transport }) {
      const cancels = events.filter((e) => e.dir === 'in' && isObj(e.message) && e.message.method === 'notifications/cancelled' && !('id' in e.message));
      if (transport === 'http') {
        const received = events.filter((e) => e.dir === 'in' && e.kind === 'message').length;
        if (cancels.length === 0) return received ? holds(`none of the ${received} messages the server sent over Streamable HTTP is a notifications/cancelled`) : untestable('the server sent no message');
        return violated(`${cancels.length} notifications/cancelled from the server over Streamable HTTP, where a 2026-07-28 server sends none (it ends a subscription by closing its stream)`, cancels.slice(0, 4).map((c) => ({ what: 'a notifications/cancelled from the server over Streamable HTTP', actual: clipJson(c.message, 400), seq: [c.seq] })));
      }
      if (cancels.length === 0) return untestable('the server cancelled nothing (it ended no subscription with notifications/cancelled)');
      const bad: Evidence[] = [];
      for (const c of cancels) {
        const params = msg(c).params;
        const id = JSON.stringify(isObj(params) ? params.requestId : undefined);
        // ids are per connection: the latest request of mcpspec's with that id on the same connection.
        const theirs = events.filter((e) => e.seq < c.seq && e.source === c.source && e.dir === 'out' && sameId(e, id) && typeof msg(e).method === 'string').pop();
        const method = theirs ? String(msg(theirs).method) : undefined;
        if (method === 'subscriptions/listen') continue;
        bad.push({ what: `notifications/cancelled for ${id} names ${method ? `mcpspec's ${method}` : 'no request mcpspec sent'}; a 2026-07-28 server cancels only a subscriptions/listen`, actual: clipJson(c.message, 400), seq: [...(theirs ? [theirs.seq] : []), c.seq] });
      }
      if (bad.length) return violated(`${bad.length} of ${cancels.length} cancellations from the server name what they may not; first: ${bad[0].what}`, bad.slice(0, 4));
      return holds(`${cancels.length} cancellation(s) from the server, each ending a subscriptions/listen of the client`);
    },
  }),
  oracle({
    id: 'cancel.modern-no-late-answer',
    title: 'stdio, 2026-07-28: a request mcpspec cancelled with notifications/cancelled gets no answer the server wrote after reading the cancellation (one that says it was cancelled, or one behind the answer to a later request)',
    requirements: ['CN-03', 'CN-02'],
    level: 'MUST',
    versions: MODERN,
    requires: { transports: ['stdio'] },
    spec: SPEC.stdio26,
    judge: ({ events }) => judgeLateAnswers(events, true),
  }),
  oracle({
    id: 'cancel.legacy-no-late-answer',
    title: 'legacy: a request mcpspec cancelled with notifications/cancelled gets no answer saying it was cancelled (the server read the cancellation, and answered all the same)',
    requirements: ['CN-04'],
    level: 'SHOULD',
    versions: LEGACY,
    spec: SPEC.cancellation25,
    // A receiver MAY ignore a cancellation of what it cannot cancel (CN-04): a plain late answer is allowed here.
    judge: ({ events }) => judgeLateAnswers(events, false),
  }),
];

/**
 * Requests mcpspec cancelled while in flight, and whether any was answered after the server had the
 * cancellation; `inOrder` (stdio, where a plain late answer is forbidden too) also counts one behind a later answer.
 */
function judgeLateAnswers(events: WireEvent[], inOrder: boolean): Judgement {
  const cancels = cancelsOfRequests(events);
  if (cancels.length === 0) return untestable('mcpspec cancelled on purpose no request of its own that was still unanswered (requests it gave up on as stragglers are not judged: whether a call becomes one depends on timing)');
  const bad: Evidence[] = [];
  for (const { cancel, request } of cancels) {
    const late = lateAnswer(events, cancel, request, inOrder);
    if (late) bad.push({ what: `${String(msg(request).method)} ${JSON.stringify(msg(request).id)}: ${late.why}`, actual: clipJson(late.answer.message, 400), expected: 'nothing more for a cancelled request', seq: [request.seq, cancel.seq, late.answer.seq] });
  }
  if (bad.length) return violated(`${bad.length} of ${cancels.length} cancelled request(s) were answered after the server had the cancellation; first: ${bad[0].what}`, bad.slice(0, 4));
  return holds(`${cancels.length} request(s) cancelled in flight; none was answered after the server had read its cancellation`);
}

type Msg = Record<string, unknown>;
const msg = (e: WireEvent): Msg => e.message as Msg;
const sameId = (e: WireEvent, id: string) => isObj(e.message) && 'id' in e.message && JSON.stringify(e.message.id) === id;

/**
 * mcpspec's notifications/cancelled naming one of its own requests on the same connection that was
 * still unanswered, sent on purpose by a scenario (a listen's end belongs to the subscriptions area).
 */
function cancelsOfRequests(events: WireEvent[]): { cancel: WireEvent; request: WireEvent }[] {
  const out: { cancel: WireEvent; request: WireEvent }[] = [];
  for (const c of events) {
    if (c.dir !== 'out' || !isObj(c.message) || c.message.method !== 'notifications/cancelled' || 'id' in c.message || !isObj(c.message.params)) continue;
    // A request given up on (a straggler) is one only on a slow enough run: judged on purpose ones only.
    if (c.message.params.reason === GAVE_UP_REASON) continue;
    const id = JSON.stringify(c.message.params.requestId);
    const mine = events.filter((e) => e.seq < c.seq && e.source === c.source && sameId(e, id));
    const request = mine.filter((e) => e.dir === 'out' && typeof msg(e).method === 'string').pop();
    if (!request || msg(request).method === 'subscriptions/listen') continue;
    if (mine.some((e) => e.dir === 'in' && e.kind === 'message' && e.seq > request.seq)) continue; // answered before the cancellation
    out.push({ cancel: c, request });
  }
  return out;
}

/**
 * An answer the server wrote knowing of the cancellation: one that reports it (only a server that read
 * the cancellation can say so; a plain answer right behind it may have been on its way, CN-04), or
 * (`inOrder`, stdio) one that comes after the server answered a request mcpspec sent after the
 * cancellation (stdio is read in order: by then the cancellation had been read).
 */
function lateAnswer(events: WireEvent[], cancel: WireEvent, request: WireEvent, inOrder: boolean): { answer: WireEvent; why: string } | undefined {
  const id = JSON.stringify(msg(request).id);
  const after = events.filter((e) => e.seq > cancel.seq && e.source === cancel.source);
  // The same id sent again (a new request) ends what can be told about the cancelled one.
  const reused = after.find((e) => e.dir === 'out' && sameId(e, id) && typeof msg(e).method === 'string');
  const window = after.filter((e) => !reused || e.seq < reused.seq);
  const answer = window.find((e) => e.dir === 'in' && e.kind === 'message' && sameId(e, id) && ('result' in msg(e) || 'error' in msg(e)));
  if (!answer) return undefined;
  if (reportsCancellation(msg(answer))) return { answer, why: 'answered with an error saying it was cancelled, written after the server read the cancellation' };
  if (!inOrder) return undefined;
  const laterAnswered = window.find((e) => {
    if (e.dir !== 'in' || e.kind !== 'message' || e.seq > answer.seq || !isObj(e.message) || !('id' in e.message) || 'method' in e.message) return false;
    const key = JSON.stringify(e.message.id);
    return window.some((r) => r.dir === 'out' && r.seq < e.seq && sameId(r, key) && typeof msg(r).method === 'string');
  });
  if (laterAnswered) return { answer, why: `answered after the server had answered a request sent after the cancellation (seq ${laterAnswered.seq})` };
  return undefined;
}

function judgeModernCancel({ tried, cancelled: c }: ModernCancelObs): Judgement {
  if (!c) return untestable(tried === 0 ? 'no tool could be called' : `none of ${tried} tools called with a progressToken reported progress before its response, so no call could be seen in flight`);
  if (!c.inFlight) return untestable(`${c.target} reported progress before its response the first time, but answered before any progress when called again (${outcome(c.call)})`);
  if (c.raced) return untestable(`every call cancelled at its first progress (last: ${c.target}) was answered before the server could have read the cancellation: none was seen in flight long enough`);
  if (c.late.length) {
    return violated(`${c.late.length} message(s) for ${c.target} came after the server had the cancellation (${c.how}); first: ${JSON.stringify(clipJson((c.late[0].message as Record<string, unknown>).method ?? 'its response'))}`, firstOffenders(c.late).map((e) => ({ what: `a message for the cancelled call after the cancellation (${c.how})`, actual: clipJson(e.message), expected: 'nothing more for that request', seq: [e.seq] })));
  }
  if (!c.fence.response) return violated(`after ${c.target} was cancelled (${c.how}) the server stopped answering: ${outcome(c.fence)}`, [evidence('fence after the cancellation', c.fence)]);
  const watched = c.how === 'notifications/cancelled' ? `nothing more came for it in the ${c.windowMs} ms after (until twice its uncancelled duration from the start, at most the timeout)` : 'its stream was closed';
  return holds(`${c.target}, cancelled at its first progress notification (${c.how}): ${watched}, and the server answered a fence`);
}