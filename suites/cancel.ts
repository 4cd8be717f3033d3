// cancel.*: cancellation of a request in flight (2025-11-25 basic/utilities/cancellation; CN-01,
// CN-04): the receiver should not answer a cancelled request, and keeps serving.

import { SPEC } from '../protocol/spec-links.js';
import { LEGACY } from '../protocol/versions.js';
import { check, holds, untestable, violated } from './check.js';
import { evidence, outcome } from './exchange.js';
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
];
