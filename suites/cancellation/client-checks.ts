// client.cancellations: an oracle over every message a client under test sent in the run: it
// cancels only requests it sent, never initialize, never a task-augmented one (CN-01, LC-09, TA-16, TB-13).

import { isObj } from '../../protocol/jsonrpc.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { clipJson } from '../kit/exchange.js';
import { clientMessages, isNotification, isRequest, isResponse, sameId, type Msg } from '../client/client-reading.js';

/** The session a client message belongs to: its stdio server process, or its HTTP session id (none: ''). */
const sessionOf = (e: WireEvent) => `${e.source}|${e.channel === 'http' ? (e.http?.headers['mcp-session-id'] ?? '') : String(e.data?.connection ?? '')}`;

/** A result that created a task: 2025-11-25 CreateTaskResult ({task}) or 2026-07-28 resultType "task". */
const createsTask = (m: unknown) => isObj(m) && isObj(m.result) && (m.result.resultType === 'task' || isObj(m.result.task));

const cancellations = oracle({
  id: 'client.cancellations',
  title: 'notifications/cancelled names only a request the client itself sent, never initialize, never a task-augmented request (tasks/cancel is for those)',
  requirements: ['CN-01', 'LC-09', 'TA-16', 'TB-13'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.cancellation25,
  judge(obs) {
    const sent = clientMessages(obs).filter((e) => !Array.isArray(e.message));
    const cancels = sent.filter((e) => isNotification(e.message) && e.message.method === 'notifications/cancelled');
    if (cancels.length === 0) return untestable('the client cancelled nothing');
    const bad: Evidence[] = [];
    for (const c of cancels) {
      const params = (c.message as Msg).params;
      const id = isObj(params) ? params.requestId : undefined;
      const what = `notifications/cancelled for ${JSON.stringify(id)}`;
      const req = [...sent].reverse().find((e) => e.seq < c.seq && sessionOf(e) === sessionOf(c) && isRequest(e.message) && sameId(e.message.id, id));
      if (!req) {
        bad.push({ what: `${what}: the client sent no request with that id before`, actual: clipJson(c.message, 400), seq: [c.seq] });
        continue;
      }
      const method = String((req.message as Msg).method);
      if (method === 'initialize') bad.push({ what: `${what}: it cancels initialize`, actual: clipJson(c.message, 400), seq: [req.seq, c.seq] });
      const answer = obs.events.find((x) => x.dir === 'out' && x.source === c.source && x.seq > req.seq && x.seq < c.seq && isResponse(x.message) && sameId(x.message.id, id));
      if (answer && createsTask(answer.message)) bad.push({ what: `${what}: ${method} had created a task, which only tasks/cancel may cancel`, actual: clipJson(c.message, 400), seq: [req.seq, answer.seq, c.seq] });
    }
    if (bad.length) return violated(`${bad.length} of ${cancels.length} cancellations name what they may not; first: ${bad[0].what}`, bad.slice(0, 4));
    return holds(`${cancels.length} cancellation(s), each of a request the client had sent`);
  },
});

export const cancellationClientChecks = [cancellations];
