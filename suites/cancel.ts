// cancel.*: cancellation of a request in flight (2025-11-25 basic/utilities/cancellation; CN-01,
// CN-04): the receiver should not answer a cancelled request, and keeps serving. 2026-07-28 (CN-02,
// CN-03): after notifications/cancelled (stdio) or the request's stream closed (HTTP) the server
// MUST NOT send anything more for the request, and keeps serving.

import { SPEC } from '../protocol/spec-links.js';
import { LEGACY, MODERN } from '../protocol/versions.js';
import { check, holds, untestable, violated, type Judgement } from './check.js';
import { clipJson, evidence, outcome } from './exchange.js';
import { modernCancelScenario, type ModernCancelObs } from './scenarios/cancel-modern.js';
import { capableClientScenario } from './scenarios/capable-client.js';

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
];

function judgeModernCancel({ tried, cancelled: c }: ModernCancelObs): Judgement {
  if (!c) return untestable(tried === 0 ? 'no tool could be called' : `none of ${tried} tools called with a progressToken reported progress before its response, so no call could be seen in flight`);
  if (!c.inFlight) return untestable(`${c.target} reported progress before its response the first time, but answered before any progress when called again (${outcome(c.call)})`);
  if (c.raced) return untestable(`every call cancelled at its first progress (last: ${c.target}) was answered before the server could have read the cancellation: none was seen in flight long enough`);
  if (c.late.length) {
    return violated(`${c.late.length} message(s) for ${c.target} came after the server had the cancellation (${c.how}); first: ${JSON.stringify(clipJson((c.late[0].message as Record<string, unknown>).method ?? 'its response'))}`, c.late.slice(0, 3).map((e) => ({ what: `a message for the cancelled call after the cancellation (${c.how})`, actual: clipJson(e.message), expected: 'nothing more for that request', seq: [e.seq] })));
  }
  if (!c.fence.response) return violated(`after ${c.target} was cancelled (${c.how}) the server stopped answering: ${outcome(c.fence)}`, [evidence('fence after the cancellation', c.fence)]);
  const watched = c.how === 'notifications/cancelled' ? `nothing more came for it in the ${c.windowMs} ms after (until twice its uncancelled duration from the start, at most the timeout)` : 'its stream was closed';
  return holds(`${c.target}, cancelled at its first progress notification (${c.how}): ${watched}, and the server answered a fence`);
}