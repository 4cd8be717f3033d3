// subscriptions.*: subscriptions/listen (2026-07-28, SUB26, SEP-2575, SB-01..SB-11): the
// acknowledgement comes first and names the subscription, every notification carries its id, and
// nothing arrives that was not asked for (no request-scoped progress or log frames either).

import { loadSchema } from '../../protocol/schema-registry.js';
import { MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, oracle, skip, untestable, violated } from '../kit/check.js';
import { clipJson, errorOf, evidence, isObj, outcome } from '../kit/exchange.js';
import { every, firstOffenders, gated, type Precondition } from '../kit/judge.js';
import { ACK, LISTEN_TYPES, SUBSCRIPTION_ID, legacyResourceSubscriptionScenario, repeated, subscriptionIdOf, subscriptionsScenario, type LegacyResourceSubscriptionObs, type Listen, type SubscriptionsObs } from './scenario.js';
import type { Exchange } from '../ports/session.js';
import type { RunObservations } from '../kit/observations.js';
import { namesVersion } from '../kit/request-shape.js';

const SUB26 = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions';
const CAN26 = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation';
const RESOURCES25 = 'https://modelcontextprotocol.io/specification/2025-11-25/server/resources';

function listensOf(obs: SubscriptionsObs): Listen[] {
  return [obs.lists, obs.task].filter((l): l is Listen => !!l);
}

/** Listens the server refused outright (an error answer, e.g. -32601): nothing to judge on them. */
function refused(l: Listen): boolean {
  return !!errorOf(l.exchange);
}

/** Untestable when the server refused every listen. */
const listening: Precondition<SubscriptionsObs> = (obs) =>
  listensOf(obs).some((l) => !refused(l)) ? undefined : untestable(`subscriptions/listen was refused: ${outcome(obs.lists.exchange)}`);

/** Legacy: skip a server that does not declare resources.subscribe. */
const subscribeDeclared: Precondition<LegacyResourceSubscriptionObs> = (obs) => (obs.declared ? undefined : skip('the server does not declare resources.subscribe'));

/** Legacy: untestable when no resource could be subscribed to. */
const subscribedToSome: Precondition<LegacyResourceSubscriptionObs> = (obs) =>
  obs.subscribed.length ? undefined : untestable(`resources/list gave no resource to subscribe to (${outcome(obs.list)})`);

/** The notifications of one subscription: tagged with its id, or of a listen type with no id at all. */
function ofListen(l: Listen): Listen['window'] {
  return l.window.filter((m) => subscriptionIdOf(m.message) === l.id || (LISTEN_TYPES.has(String(m.message.method)) && subscriptionIdOf(m.message) === undefined));
}

/**
 * The first message surely of this listen: over HTTP the first notification on its own stream; on
 * stdio the first naming its id (an untagged one may be another listen's, or the server's own clock:
 * subscriptions.ids judges those).
 */
function firstOfListen(l: Listen, transport: string): Listen['window'][number] | undefined {
  if (transport === 'http') {
    const own = new Set(l.exchange.messages.filter((m) => isObj(m) && typeof m.method === 'string' && !('id' in m)).map((m) => JSON.stringify(m)));
    return ofListen(l).find((m) => own.has(JSON.stringify(m.message)));
  }
  return ofListen(l).find((m) => subscriptionIdOf(m.message) === l.id);
}

/** Whether the filter asked for this notification (SB-01, TB-17). */
function requested(filter: Record<string, unknown>, m: Record<string, unknown>): boolean {
  const p = isObj(m.params) ? m.params : {};
  switch (m.method) {
    case ACK:
      return true;
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated':
      return Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.some((u) => typeof u === 'string' && covers(u, p.uri));
    case 'notifications/tasks':
      return Array.isArray(filter.taskIds) && filter.taskIds.includes(p.taskId);
    default:
      return false;
  }
}

/**
 * Whether an update for `uri` belongs to a subscription to `subscribed`: the same uri, or (both
 * schemas: "this might be a sub-resource of the one that the client actually subscribed to") one below it.
 */
export function covers(subscribed: string, uri: unknown): boolean {
  if (typeof uri !== 'string') return false;
  if (uri === subscribed) return true;
  if (!uri.startsWith(subscribed)) return false;
  return subscribed.endsWith('/') || ['/', '#', '?'].includes(uri[subscribed.length]);
}

type Obj = Record<string, unknown>;


/** How the server ended a listen mcpspec had not ended (yet): its response, a notifications/cancelled, or a closed stream. */
interface ServerEnd {
  id: unknown;
  how: 'response' | 'cancelled' | 'closed';
  message?: Obj;
  seq?: number;
  exchange?: Exchange;
}

/** Every subscriptions/listen of the run the server ended on its own (SB-08), from the recording. */
function serverEnds(obs: RunObservations): ServerEnd[] {
  const ins = obs.events.filter((e) => e.dir === 'in' && isObj(e.message));
  const outs = obs.events.filter((e) => e.dir === 'out' && isObj(e.message));
  const ends: ServerEnd[] = [];
  const ids = new Set(outs.filter((e) => (e.message as Obj).method === 'subscriptions/listen' && 'id' in (e.message as Obj)).map((e) => (e.message as Obj).id));
  for (const id of ids) {
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const clientEnd = outs.find((e) => (e.message as Obj).method === 'notifications/cancelled' && isObj((e.message as Obj).params) && ((e.message as Obj).params as Obj).requestId === id)?.seq ?? Infinity;
    const ack = ins.find((e) => (e.message as Obj).method === ACK && subscriptionIdOf(e.message as Obj) === id);
    const response = ins.find((e) => (e.message as Obj).id === id && !('method' in (e.message as Obj)) && ('result' in (e.message as Obj) || 'error' in (e.message as Obj)));
    const cancelled = ins.find((e) => (e.message as Obj).method === 'notifications/cancelled' && isObj((e.message as Obj).params) && ((e.message as Obj).params as Obj).requestId === id);
    // An error before any acknowledgement is a refused listen, not an ended one (subscriptions.ack judges those).
    if (cancelled && cancelled.seq < clientEnd) ends.push({ id, how: 'cancelled', message: cancelled.message as Obj, seq: cancelled.seq });
    else if (response && response.seq < clientEnd && (ack || 'result' in (response.message as Obj))) ends.push({ id, how: 'response', message: response.message as Obj, seq: response.seq });
    else if (ack && !response) {
      // HTTP: the listen's stream ended with no answer while mcpspec still held it.
      const ex = obs.exchanges.find((x) => x.id === id && x.method === 'subscriptions/listen');
      if (ex?.streamBroken && !ex.aborted && !ex.timedOut) ends.push({ id, how: 'closed', exchange: ex });
    }
  }
  return ends;
}

/** What is wrong with how a server ended a listen (SB-08), or undefined. */
function badEnd(end: ServerEnd): string | undefined {
  if (end.how === 'cancelled') return undefined;
  if (end.how === 'closed') return 'the stream closed with neither the completion result nor notifications/cancelled (an abrupt end)';
  const m = end.message!;
  if (!isObj(m.result)) return `it answered with an error (${JSON.stringify(isObj(m.error) ? m.error.code : m.error)}), not the completion result`;
  const problems: string[] = [];
  if (m.result.resultType !== 'complete') problems.push(`resultType is ${JSON.stringify(m.result.resultType)}, not "complete"`);
  const meta = isObj(m.result._meta) ? m.result._meta : {};
  if (meta[SUBSCRIPTION_ID] !== end.id) problems.push(`_meta["${SUBSCRIPTION_ID}"] is ${JSON.stringify(meta[SUBSCRIPTION_ID])}, not ${JSON.stringify(end.id)}`);
  const extra = Object.keys(m.result).filter((k) => k !== 'resultType' && k !== '_meta');
  if (extra.length) problems.push(`it carries ${extra.join(', ')} (the result is otherwise empty)`);
  return problems.length ? problems.join('; ') : undefined;
}

const CHANGES = new Set([...LISTEN_TYPES].filter((m) => m !== ACK));
const isChange = (m: unknown): m is Record<string, unknown> => isObj(m) && typeof m.method === 'string' && CHANGES.has(m.method) && !('id' in m);

/** stdio: the recordings (scenarios) that opened a legacy session with initialize. */
function legacySources(obs: RunObservations): Set<string | undefined> {
  return new Set(obs.events.filter((e) => e.dir === 'out' && isObj(e.message) && e.message.method === 'initialize').map((e) => e.source));
}

/** Change notifications that came to 2026-07-28 requests and connections (what SB-02 governs). */
function modernChanges(obs: RunObservations): number {
  if (obs.transport === 'http') return obs.exchanges.filter((ex) => namesVersion(ex.request)).reduce((n, ex) => n + ex.messages.filter(isChange).length, 0);
  const legacy = legacySources(obs);
  return obs.events.filter((e) => e.dir === 'in' && isChange(e.message) && !legacy.has(e.source)).length;
}

/**
 * Change notifications that no subscription explains. HTTP: everything on a stream belongs to its
 * request, so one on any answer but a listen's is stray. stdio: one naming no listen request of the
 * run, or naming none on a connection where no listen was ever sent (an untagged one beside an open
 * listen is subscriptions.ids' to judge).
 */
function strayChanges(obs: RunObservations): { message: Record<string, unknown>; where: string; seq?: number }[] {
  const listens = obs.exchanges.filter((ex) => ex.method === 'subscriptions/listen');
  // A dual-era server's legacy sessions (mcpspec opens some to probe versions) send list changes the
  // legacy way, after notifications/initialized (LC-06 judges those): SB-02 is a rule of the modern era.
  if (obs.transport === 'http') {
    return obs.exchanges.filter((ex) => ex.method !== 'subscriptions/listen' && namesVersion(ex.request)).flatMap((ex) =>
      ex.messages.filter(isChange).map((message) => ({ message, where: `on the answer to ${ex.method ?? 'a request'}`, seq: ex.seq[0] })));
  }
  const ids = new Set(listens.map((ex) => JSON.stringify(ex.id)));
  const sentSeqs = new Set(listens.map((ex) => ex.seq[0]));
  const listening = new Set(obs.events.filter((e) => sentSeqs.has(e.seq)).map((e) => e.source));
  const legacy = legacySources(obs);
  return obs.events.filter((e) => e.dir === 'in' && isChange(e.message) && !legacy.has(e.source)).flatMap((e) => {
    const message = e.message as Record<string, unknown>;
    const sid = subscriptionIdOf(message);
    if (sid !== undefined) return ids.has(JSON.stringify(sid)) ? [] : [{ message, where: `naming subscriptionId ${JSON.stringify(sid)}, which no listen request had`, seq: e.seq }];
    return listening.has(e.source) ? [] : [{ message, where: 'on a connection with no subscription open', seq: e.seq }];
  });
}

export const subscriptionsChecks = [
  check(subscriptionsScenario, {
    id: 'subscriptions.ack',
    title: 'the first message of a subscription is notifications/subscriptions/acknowledged, naming the listen id as subscriptionId and honouring only what was asked',
    requirements: ['SB-03', 'SB-05'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge: gated([listening], (obs, ctx) => {
      const bad: Evidence[] = [];
      const live = listensOf(obs).filter((l) => !refused(l));
      for (const l of live) {
        const first = firstOfListen(l, ctx.transport);
        if (!first) {
          bad.push(evidence(`listen ${l.id}: no acknowledgement`, l.exchange, { expected: `${ACK} within ${l.boundMs} ms` }));
          continue;
        }
        const m = first.message;
        const p = isObj(m.params) ? m.params : {};
        const problems: string[] = [];
        if (m.method !== ACK) problems.push(`the first message is ${String(m.method)}`);
        else {
          if (subscriptionIdOf(m) !== l.id) problems.push(`_meta.subscriptionId is ${JSON.stringify(subscriptionIdOf(m))}, not ${JSON.stringify(l.id)}`);
          const honoured = isObj(p.notifications) ? p.notifications : undefined;
          if (!honoured) problems.push('no notifications filter');
          else {
            for (const [k, v] of Object.entries(honoured)) {
              const asked = l.filter[k];
              if (Array.isArray(v) ? !(Array.isArray(asked) && v.every((x) => asked.includes(x))) : v === true && asked !== true) problems.push(`it honours ${k}: ${JSON.stringify(v)}, which was not asked`);
            }
          }
        }
        if (problems.length) bad.push({ what: `listen ${l.id}: ${problems.join('; ')}`, request: clipJson(l.exchange.request), actual: clipJson(m), seq: [first.seq] });
      }
      if (bad.length) return violated(bad.map((b) => b.what).join(' | '), firstOffenders(bad));
      return holds(`${live.length} subscription(s) acknowledged first, with their own id`);
    }),
  }),
  check(subscriptionsScenario, {
    id: 'subscriptions.ids',
    title: 'every notification on a subscription carries _meta["io.modelcontextprotocol/subscriptionId"] equal to the listen request id',
    requirements: ['SB-05', 'MT-08'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge: gated([listening], (obs) =>
      every(listensOf(obs).flatMap((l) => ofListen(l).filter((m) => m.message.method !== ACK).map((m) => [l, m] as const)), {
        none: `no notification besides acknowledgements arrived on a subscription${obs.noTask ? ` (${obs.noTask})` : obs.tasksDeclared ? '' : '; nothing changed while listening'}`,
        offends: ([l, m]) => subscriptionIdOf(m.message) !== l.id,
        violated: (bad, notes) => `${bad.length} of ${notes.length} notifications lack the subscriptionId; first: ${String(bad[0][1].message.method)}`,
        evidence: ([l, m]) => ({ what: `${String(m.message.method)} on listen ${l.id}`, expected: { _meta: { 'io.modelcontextprotocol/subscriptionId': l.id } }, actual: clipJson(m.message), seq: [m.seq] }),
        holds: (notes) => `${notes.length} notification(s), each with its subscriptionId`,
      })),
  }),
  check(subscriptionsScenario, {
    id: 'subscriptions.requested-only',
    title: 'a subscription carries only the notification types it asked for: no other types, no progress or log frames',
    requirements: ['SB-02', 'SB-11', 'TB-18'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge: gated([listening], (obs) => {
      const all = listensOf(obs).flatMap((l) => {
        // Over HTTP everything on the listen's own SSE stream belongs to it, tagged or not.
        const stream = l.exchange.messages.filter((m): m is Record<string, unknown> => isObj(m) && typeof m.method === 'string' && !('id' in m));
        const tagged = l.window.filter((m) => subscriptionIdOf(m.message) === l.id).map((m) => m.message);
        return [...new Set([...ofListen(l).map((m) => m.message), ...tagged, ...stream])].map((m) => [l, m] as const);
      });
      return every(all.filter(([, m]) => m.method !== ACK), {
        none: `no notification besides acknowledgements arrived on a subscription${obs.noTask ? ` (${obs.noTask})` : ''}`,
        offends: ([l, m]) => !requested(l.filter, m),
        violated: (bad) => `${bad.length} notification(s) not asked for; first: ${String(bad[0][1].method)} on a listen for ${JSON.stringify(bad[0][0].filter)}`,
        evidence: ([l, m]) => ({ what: `${String(m.method)} on listen ${l.id}`, expected: l.filter, actual: clipJson(m) }),
        holds: (judged) => `${judged.length} notification(s), each asked for`,
      });
    }),
  }),
  check(legacyResourceSubscriptionScenario, {
    id: 'subscriptions.resources-legacy',
    title: 'with resources.subscribe declared, resources/subscribe and resources/unsubscribe of a listed resource are answered with an empty result',
    requirements: ['R25'],
    level: 'MUST',
    versions: ['2025-06-18', '2025-11-25'],
    requires: { capabilities: ['resources'] },
    spec: RESOURCES25,
    judge: gated([subscribeDeclared], (obs, ctx) => {
      if (!obs.uri) return untestable(`resources/list gave no resource to subscribe to (${outcome(obs.list)})`);
      const empty = loadSchema(ctx.version).validator('EmptyResult');
      const bad = ([['resources/subscribe', obs.subscribe], ['resources/unsubscribe', obs.unsubscribe]] as [string, Exchange | undefined][]).filter(([, ex]) => {
        const r = ex?.response;
        return !(isObj(r) && isObj(r.result) && empty(r.result));
      });
      if (bad.length) return violated(bad.map(([w, ex]) => `${w} ${obs.uri} got ${outcome(ex)}`).join('; '), bad.map(([w, ex]) => evidence(w, ex, { expected: { result: {} } })));
      return holds(`subscribed to and unsubscribed from ${obs.uri}`);
    }),
  }),
  check(subscriptionsScenario, {
    id: 'subscriptions.client-end',
    title: 'stdio: once mcpspec ends a subscription (notifications/cancelled for the listen id) and a later request was answered, nothing more arrives for that subscription id',
    requirements: ['SB-07', 'CN-03'],
    level: 'MUST',
    versions: MODERN,
    requires: { transports: ['stdio'] },
    spec: CAN26,
    judge: gated([listening], (obs) => {
      const watched = listensOf(obs).filter((l) => l.afterEnd);
      if (watched.length === 0) return untestable(`no subscription was delivering notifications (the same one twice) when mcpspec ended it, so silence after its end would prove nothing${obs.lists.ended === 'quiet' ? ` (the listen for every list and resource got no repeated notification within ${Math.min(obs.lists.boundMs, 2000)} ms of its acknowledgement)` : ''}`);
      return every(watched.filter((l) => !l.afterEnd!.why), {
        none: watched.map((l) => `listen ${l.id}: ${l.afterEnd!.why}`).join('; '),
        // One batch right after the fence may have been on its way when the cancellation was read (CN-04:
        // races must be tolerated); the same notification twice shows the subscription still running.
        offends: (l) => repeated(l.afterEnd!.late.map((m) => m.message)),
        violated: (bad) => bad.map((l) => `listen ${l.id}: ${l.afterEnd!.late.length} notification(s) after it was cancelled and a later request answered; first: ${String(l.afterEnd!.late[0].message.method)}`).join(' | '),
        evidence: (l) => ({ what: `after notifications/cancelled for ${l.id} (seq ${l.afterEnd!.cancelSeq}) and the fence's answer (seq ${l.afterEnd!.fenceSeq})`, expected: 'nothing for this subscription', actual: clipJson(l.afterEnd!.late[0].message), seq: l.afterEnd!.late.slice(0, 5).map((m) => m.seq) }),
        holds: (judged) => judged.map((l) => `listen ${l.id}: ${l.afterEnd!.late.length ? `${l.afterEnd!.late.length} straggler(s), none repeated,` : 'nothing'} after its end (watched ${l.afterEnd!.windowMs} ms past a fence)`).join('; '),
      });
    }),
  }),
  oracle({
    id: 'subscriptions.only-on-listen',
    title: 'change notifications (list changes, resource updates, task status) come only on a subscriptions/listen stream, never on another request\'s answer or unasked',
    requirements: ['SB-02', 'HM-15'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge(obs) {
      const changes = modernChanges(obs);
      if (changes === 0) return untestable('no change notification came to a 2026-07-28 request during the run');
      const stray = strayChanges(obs);
      if (stray.length) {
        return violated(`${stray.length} of ${changes} change notification(s) outside any subscription; first: ${String(stray[0].message.method)} ${stray[0].where}`,
          firstOffenders(stray).map((x) => ({ what: `${String(x.message.method)} ${x.where}`, expected: 'only on a subscriptions/listen stream that asked for it', actual: clipJson(x.message), seq: x.seq === undefined ? [] : [x.seq] })));
      }
      return holds(`${changes} change notification(s), each on a subscriptions/listen stream`);
    },
  }),
  oracle({
    id: 'subscriptions.server-end',
    title: 'a subscription the server ends itself ends with the completion result (resultType "complete", _meta subscriptionId = the listen id, nothing else) or a notifications/cancelled naming the listen',
    requirements: ['SB-08', 'SB-09'],
    level: 'SHOULD',
    versions: MODERN,
    spec: SUB26,
    judge(obs) {
      return every(serverEnds(obs), {
        none: 'the server ended no subscription during the run (mcpspec ended each one itself)',
        offends: (e) => badEnd(e) !== undefined,
        violated: (bad) => bad.map((e) => `listen ${JSON.stringify(e.id)}: ${badEnd(e)}`).join(' | '),
        evidence: (e) => {
          const what = `the end of listen ${JSON.stringify(e.id)}: ${badEnd(e)}`;
          const expected = { result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: e.id } } };
          return e.exchange ? evidence(what, e.exchange, { expected }) : { what, expected, actual: clipJson(e.message), seq: e.seq === undefined ? [] : [e.seq] };
        },
        holds: (ends) => ends.map((e) => `listen ${JSON.stringify(e.id)} ended by the server with ${e.how === 'cancelled' ? 'notifications/cancelled' : 'the completion result'}`).join('; '),
      });
    },
  }),
  check(legacyResourceSubscriptionScenario, {
    id: 'subscriptions.updated-legacy',
    title: 'stdio, legacy: every notifications/resources/updated names a resource (or a sub-resource of one) the client had subscribed to',
    requirements: ['R25'],
    level: 'SHOULD',
    versions: ['2025-06-18', '2025-11-25'],
    requires: { capabilities: ['resources'], transports: ['stdio'] },
    spec: RESOURCES25,
    judge: gated([subscribeDeclared, subscribedToSome], (obs) =>
      every([...obs.updates, ...(obs.watched?.late ?? [])], {
        none: `no notifications/resources/updated arrived within ${obs.watched?.quietMs ?? 0} ms of subscribing to ${obs.subscribed.length} resource(s) (servers send them when a resource changes; nothing in the run changed one)`,
        offends: (u) => !obs.subscribed.some((s) => s.sentSeq < u.seq && covers(s.uri, u.uri)),
        violated: (bad, all) => `${bad.length} of ${all.length} updates name no subscribed resource; first: ${JSON.stringify(bad[0].uri)} (subscribed: ${obs.subscribed.map((s) => s.uri).join(', ')})`,
        evidence: (u) => ({ what: 'notifications/resources/updated', expected: `a uri among (or below) ${obs.subscribed.map((s) => s.uri).join(', ')}, subscribed before it`, actual: clipJson(u.message), seq: [u.seq] }),
        holds: (all) => `${all.length} update(s), each for a subscribed resource`,
      })),
  }),
  check(legacyResourceSubscriptionScenario, {
    id: 'subscriptions.unsubscribe-legacy',
    title: 'stdio, legacy: after resources/unsubscribe was answered (and a later request too), no more notifications/resources/updated for that resource',
    requirements: ['R25'],
    level: 'SHOULD',
    versions: ['2025-06-18', '2025-11-25'],
    requires: { capabilities: ['resources'], transports: ['stdio'] },
    spec: RESOURCES25,
    judge: gated([subscribeDeclared, subscribedToSome], (obs) => {
      const w = obs.watched;
      if (!w) return untestable('nothing was watched after unsubscribing');
      if (w.why) return untestable(w.why);
      const unsubscribed = obs.subscribed.filter((s) => isObj(s.unsubscribe?.response) && 'result' in (s.unsubscribe!.response as Obj));
      // As for listens: one batch right after the fence may have been on its way; a repeat shows the updates still running.
      const bad = w.late.filter((u) => unsubscribed.some((s) => covers(s.uri, u.uri)));
      if (repeated(bad.map((u) => u.message))) return violated(`${bad.length} update(s) for unsubscribed resources after the unsubscribes and a fence were answered; first: ${JSON.stringify(bad[0].uri)}`, firstOffenders(bad).map((u) => ({ what: 'notifications/resources/updated after resources/unsubscribe', expected: 'nothing for this resource', actual: clipJson(u.message), seq: [u.seq] })));
      return holds(`${obs.updates.length} update(s) while subscribed; none in the ${w.windowMs} ms watched after unsubscribing from ${unsubscribed.length} resource(s)`);
    }),
  }),
];
