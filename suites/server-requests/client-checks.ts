// client.server-requests: a client under test answers the requests a legacy server sends it (ping,
// and what it declared: roots, sampling, elicitation) with valid results or errors (JR-10, LC-10).
// Judged on the plain legacy scripted server (lifecycle/client-scenarios.ts), which asks once the
// client has sent notifications/initialized.

import { isObj } from '../../protocol/jsonrpc.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { messages } from '../../arbitraries/messages.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { ev, isRequest, isResponse, type Msg } from '../client/client-reading.js';
import { legacyServer } from '../lifecycle/client-scenarios.js';

const serverRequests = check(legacyServer, {
  id: 'client.server-requests',
  title: 'the client answers the server\'s ping (empty result) and the requests it declared capabilities for, with valid results or errors',
  requirements: ['JR-10', 'LC-10', 'JR-04'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const declared = o.log.serverRequests.filter((r) => r.declared);
    if (declared.length === 0) return untestable('the client sent no request after notifications/initialized, so the server had no stream to ask it on');
    const version = (() => {
      const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize');
      const v = isObj(init?.reply) && isObj(init.reply.result) ? init.reply.result.protocolVersion : undefined;
      return v === '2025-06-18' ? '2025-06-18' : '2025-11-25';
    })();
    const doc = loadSchema(version);
    const index = messages(version).index;
    const problems: Evidence[] = [];
    let answered = 0;
    for (const asked of declared) {
      const reply = o.received.find((r) => isResponse(r.message) && r.message.id === asked.id);
      if (!reply) {
        problems.push({ what: `${asked.method} (id ${asked.id}) was never answered`, expected: 'a response' });
        continue;
      }
      answered++;
      const m = reply.message as Msg;
      if (!doc.validator('JSONRPCMessage')(m)) {
        problems.push(ev(`the answer to ${asked.method} is not a valid JSON-RPC response`, reply));
        continue;
      }
      if ('error' in m) {
        if (asked.method === 'ping') problems.push(ev('ping was answered with an error', reply));
        continue;
      }
      const def = asked.method === 'ping' ? 'EmptyResult' : index.get(asked.method)?.resultDefinition;
      if (def && isObj(m.result) && !doc.validator(def)(m.result)) problems.push(ev(`the ${asked.method} result is not a valid ${def}`, reply));
      if (asked.method === 'ping' && isObj(m.result) && Object.keys(m.result).some((k) => k !== '_meta')) problems.push(ev('ping was answered with a non-empty result', reply));
    }
    if (problems.length) return violated(`${problems.length} of ${declared.length} server requests answered wrongly or not at all; first: ${problems[0].what}`, problems.slice(0, 4));
    return holds(`${answered} server requests (${declared.map((r) => r.method).join(', ')}) answered validly`);
  },
});

export const serverRequestsClientChecks = [serverRequests];
