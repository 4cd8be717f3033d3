// client.*, messages: oracles over every message a client under test sent in the run: each valid
// against the client-side schema of its version (JR-01, JR-02), request ids (JR-02, JR-03),
// notifications without an id (JR-07), no batches (JR-08), and responses only to requests the
// server sent (JR-09, JR-04). A check a client gives no chance to show is untestable, never a pass.

import { isObj } from '../../protocol/jsonrpc.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { messages } from '../../arbitraries/messages.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { clipJson } from '../kit/exchange.js';
import { every, firstOffenders } from '../kit/judge.js';
import { clientMessages, fromClient, idKey, isRequest, isResponse, judgedClientMessages, type Msg } from '../client/client-reading.js';
import { modernMetaOf } from '../client/scripted-server.js';

/** The schema a client message is judged by: modern _meta names 2026-07-28; otherwise the legacy version of the run. */
function schemaVersionOf(m: unknown, run: string): string {
  const params = isObj(m) ? m.params : undefined;
  if (modernMetaOf(params)) return '2026-07-28';
  return LEGACY.includes(run as never) ? run : '2025-11-25';
}

const TASK_DEFS: Record<string, string> = { 'tasks/get': 'GetTaskRequest', 'tasks/update': 'UpdateTaskRequest', 'tasks/cancel': 'CancelTaskRequest' };

/** Why one client message is invalid for the schema of its version (the tasks extension's for tasks/*), or undefined. */
export function schemaProblem(e: WireEvent, runVersion: string): Evidence | undefined {
  const problems: Evidence[] = [];
  const key = schemaVersionOf(e.message, runVersion);
  const doc = loadSchema(key);
  const m = e.message as Msg;
  let def = 'JSONRPCMessage';
  if (key === '2026-07-28' && typeof m.method === 'string' && TASK_DEFS[m.method]) {
    const ext = loadSchema('ext-tasks-draft');
    const vt = ext.validator(TASK_DEFS[m.method]);
    if (!(vt(m) as boolean)) problems.push({ what: `${m.method} is not a valid ${TASK_DEFS[m.method]} (tasks extension)`, actual: clipJson(m, 800), pointer: vt.errors?.[0]?.instancePath, expected: vt.errors?.[0]?.message, seq: [e.seq] });
  } else if (typeof m.method === 'string') {
    const info = messages(key).index.get(m.method);
    if (info && !info.embedded && info.direction !== 'server-to-client') def = info.definition;
  }
  const v = doc.validator(def);
  const valid = (v(m) as boolean) && (def === 'JSONRPCMessage' || (doc.validator('JSONRPCMessage')(m) as boolean));
  if (!valid) {
    const err = v.errors?.[0];
    problems.push({ what: `${String(m.method ?? 'a response')} is not a valid ${def} (${key})`, actual: clipJson(m, 800), pointer: err?.instancePath, expected: err?.message, seq: [e.seq] });
  }
  return problems[0];
}

const clientSchema = oracle({
  id: 'client.schema',
  title: 'every message from the client validates against the client-side JSON Schema of its version',
  requirements: ['JR-01', 'JR-02', 'JR-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    const msgs = judgedClientMessages(obs);
    if (msgs.length === 0) return untestable('the client sent no message');
    const problems: Evidence[] = [];
    for (const e of msgs) {
      const p = schemaProblem(e, obs.version);
      if (p) problems.push(p);
    }
    if (problems.length) return violated(`${problems.length} of ${msgs.length} client messages are invalid; first: ${problems[0].what} (${problems[0].pointer || '/'}: ${String(problems[0].expected)})`, problems.slice(0, 5));
    // The Rust SDK's client message schema, beside the official one: where they disagree it is a note, never a failure.
    const notes = rmcpDisagreements(msgs.filter((e) => schemaVersionOf(e.message, obs.version) === '2026-07-28'));
    const note = notes.length ? `; note: the Rust SDK's client message schema rejects ${notes.length} of them (first: ${notes[0].what}), a disagreement with the official schema, not a failure` : '';
    return holds(`${msgs.length} client messages valid against their version's schema${note}`, firstOffenders(notes));
  },
});

/** Modern messages the official schema accepts but the Rust SDK's client message schema (rmcp) rejects. */
function rmcpDisagreements(events: WireEvent[]): Evidence[] {
  if (events.length === 0) return [];
  const doc = loadSchema('rmcp-client-2026-07-28');
  const v = doc.validatorForNodes([doc.root]);
  const out: Evidence[] = [];
  for (const e of events) {
    if (v(e.message) as boolean) continue;
    const err = v.errors?.[0];
    out.push({ what: `${String((e.message as Msg).method ?? 'a response')} (rmcp: ${err?.instancePath || '/'} ${err?.message ?? ''})`, actual: clipJson(e.message, 400), seq: [e.seq] });
  }
  return out;
}

const requestIds = oracle({
  id: 'client.request-ids',
  title: 'request ids are strings or integers, never reused while in flight (2026-07-28) or within a session (earlier versions)',
  requirements: ['JR-02', 'JR-03', 'JR-03b'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    // A request refused at the HTTP layer (401: no token yet) never reached the server: sent again with its id, it is a retry, not a reuse.
    const reqs = clientMessages(obs).filter((e) => isRequest(e.message) && e.data?.refused === undefined);
    if (reqs.length === 0) return untestable('the client sent no request');
    const bad: Evidence[] = [];
    // Connections: stdio relay connections are not visible in events; a source (scenario) plus era is the session bound.
    const answeredAt = new Map<string, number>();
    for (const e of obs.events) if (e.dir === 'out' && isObj(e.message) && 'id' in e.message && !('method' in e.message)) answeredAt.set(`${e.source}|${JSON.stringify(e.message.id)}|${e.seq}`, e.seq);
    const seen = new Map<string, WireEvent[]>();
    // A scenario may start the client more than once (a baseline run first): each run is its own client.
    const exits = obs.events.filter((x) => x.note === 'client-exit');
    const runOf = (e: WireEvent) => exits.filter((x) => x.source === e.source && x.seq < e.seq).length;
    for (const e of reqs) {
      const m = e.message as Msg;
      if (!(typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)))) {
        bad.push({ what: `${String(m.method)} has id ${JSON.stringify(m.id)}`, actual: clipJson(m, 400), seq: [e.seq] });
        continue;
      }
      // One session: a stdio server process the client started, or an HTTP session id (or none).
      const session = e.channel === 'http' ? (e.http?.headers['mcp-session-id'] ?? '') : String(e.data?.connection ?? '');
      const key = `${e.source}|${runOf(e)}|${session}|${modernMetaOf(m.params) ? 'modern' : 'legacy'}|${JSON.stringify(m.id)}`;
      const earlier = seen.get(key) ?? [];
      for (const prev of earlier) {
        const legacy = !modernMetaOf(m.params) && m.method !== 'initialize';
        const answered = obs.events.some((x) => x.dir === 'out' && x.source === e.source && x.seq > prev.seq && x.seq < e.seq && isObj(x.message) && JSON.stringify(x.message.id) === JSON.stringify(m.id) && !('method' in x.message));
        if (legacy || !answered) {
          bad.push({ what: `${String(m.method)} reuses id ${JSON.stringify(m.id)} ${legacy ? 'within the session' : 'while it was still in flight'}`, actual: clipJson(m, 400), seq: [prev.seq, e.seq] });
          break;
        }
      }
      seen.set(key, [...earlier, e]);
    }
    if (bad.length) return violated(`${bad.length} request id problem(s); first: ${bad[0].what}`, bad.slice(0, 4));
    return holds(`${reqs.length} requests, ids well-formed and unique`);
  },
});

const notificationIds = oracle({
  id: 'client.notification-no-id',
  title: 'notifications (notifications/* methods) carry no id',
  requirements: ['JR-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    return every(clientMessages(obs).filter((e) => isObj(e.message) && typeof e.message.method === 'string' && e.message.method.startsWith('notifications/')), {
      none: 'the client sent no notification',
      offends: (e) => 'id' in (e.message as Msg),
      violated: (bad, notes) => `${bad.length} of ${notes.length} notifications carry an id; first: ${String((bad[0].message as Msg).method)}`,
      evidence: (e) => ({ what: 'notification with an id', actual: clipJson(e.message, 400), seq: [e.seq] }),
      holds: (notes) => `${notes.length} notifications, none with an id`,
    });
  },
});

const noBatch = oracle({
  id: 'client.no-batch',
  title: 'the client sends one JSON-RPC message per body or line, never a batch array',
  requirements: ['JR-08'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    const all = obs.events.filter((e) => e.dir === 'in' && e.message !== undefined);
    if (all.length === 0) return untestable('the client sent no message');
    const batches = all.filter((e) => Array.isArray(e.message));
    if (batches.length) return violated(`${batches.length} batch array(s) sent`, batches.slice(0, 2).map((e) => ({ what: 'batch', actual: clipJson(e.message, 400), seq: [e.seq] })));
    return holds(`${all.length} bodies, each a single message`);
  },
});

const responsesAnswerRequests = oracle({
  id: 'client.responses-answer-requests',
  title: 'every response the client sends answers a request the server sent it (a 2026-07-28 server sends none, so its client sends no response)',
  requirements: ['JR-09', 'JR-04'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    // The server requests of each scenario, by id: a response answers one sent earlier in the same scenario.
    const asked = new Map<string, number[]>();
    for (const e of obs.events) {
      if (e.dir !== 'out' || !isRequest(e.message)) continue;
      const k = `${e.source}|${idKey(e.message.id)}`;
      asked.set(k, [...(asked.get(k) ?? []), e.seq]);
    }
    return every(fromClient(obs.events).filter((e) => isResponse(e.message)), {
      none: holds('the client sent no response'),
      offends: (e) => !(asked.get(`${e.source}|${idKey((e.message as Msg).id)}`) ?? []).some((seq) => seq < e.seq),
      violated: (bad, responses) => `${bad.length} of ${responses.length} responses from the client answer no request the server sent; first id ${idKey((bad[0].message as Msg).id)}`,
      evidence: (e) => ({ what: 'a response to no request', actual: clipJson(e.message, 400), seq: [e.seq] }),
      holds: (responses) => `${responses.length} responses, each to a request the server sent`,
    });
  },
});

export const messagesClientChecks = [clientSchema, requestIds, notificationIds, noBatch, responsesAnswerRequests];
