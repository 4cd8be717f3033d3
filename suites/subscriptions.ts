// subscriptions.*: subscriptions/listen (2026-07-28, SUB26, SEP-2575, SB-01..SB-11): the
// acknowledgement comes first and names the subscription, every notification carries its id, and
// nothing arrives that was not asked for (no request-scoped progress or log frames either).

import { loadSchema } from '../protocol/schema-registry.js';
import { MODERN } from '../protocol/versions.js';
import type { Evidence } from '../results/verdict.js';
import { check, holds, skip, untestable, violated, type Judgement } from './check.js';
import { clipJson, errorOf, evidence, isObj, outcome } from './exchange.js';
import { ACK, LISTEN_TYPES, legacyResourceSubscriptionScenario, subscriptionIdOf, subscriptionsScenario, type Listen, type SubscriptionsObs } from './scenarios/subscriptions.js';
import type { Exchange } from './ports.js';

const SUB26 = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions';
const RESOURCES25 = 'https://modelcontextprotocol.io/specification/2025-11-25/server/resources';

function listensOf(obs: SubscriptionsObs): Listen[] {
  return [obs.lists, obs.task].filter((l): l is Listen => !!l);
}

/** Listens the server refused outright (an error answer, e.g. -32601): nothing to judge on them. */
function refused(l: Listen): boolean {
  return !!errorOf(l.exchange);
}

function allRefused(obs: SubscriptionsObs): Judgement | undefined {
  const live = listensOf(obs).filter((l) => !refused(l));
  if (live.length === 0) return untestable(`subscriptions/listen was refused: ${outcome(obs.lists.exchange)}`);
  return undefined;
}

/** The notifications of one subscription: tagged with its id, or of a listen type with no id at all. */
function ofListen(l: Listen): Listen['window'] {
  return l.window.filter((m) => subscriptionIdOf(m.message) === l.id || (LISTEN_TYPES.has(String(m.message.method)) && subscriptionIdOf(m.message) === undefined));
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
      return Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.includes(p.uri);
    case 'notifications/tasks':
      return Array.isArray(filter.taskIds) && filter.taskIds.includes(p.taskId);
    default:
      return false;
  }
}

export const subscriptionsChecks = [
  check(subscriptionsScenario, {
    id: 'subscriptions.ack',
    title: 'the first message of a subscription is notifications/subscriptions/acknowledged, naming the listen id as subscriptionId and honouring only what was asked',
    requirements: ['SB-03', 'SB-05'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge(obs) {
      const none = allRefused(obs);
      if (none) return none;
      const bad: Evidence[] = [];
      const live = listensOf(obs).filter((l) => !refused(l));
      for (const l of live) {
        const first = ofListen(l)[0];
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
      if (bad.length) return violated(bad.map((b) => b.what).join(' | '), bad.slice(0, 3));
      return holds(`${live.length} subscription(s) acknowledged first, with their own id`);
    },
  }),
  check(subscriptionsScenario, {
    id: 'subscriptions.ids',
    title: 'every notification on a subscription carries _meta["io.modelcontextprotocol/subscriptionId"] equal to the listen request id',
    requirements: ['SB-05'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge(obs) {
      const none = allRefused(obs);
      if (none) return none;
      const notes = listensOf(obs).flatMap((l) => ofListen(l).filter((m) => m.message.method !== ACK).map((m) => [l, m] as const));
      if (notes.length === 0) return untestable(`no notification besides acknowledgements arrived on a subscription${obs.noTask ? ` (${obs.noTask})` : obs.tasksDeclared ? '' : '; nothing changed while listening'}`);
      const bad = notes.filter(([l, m]) => subscriptionIdOf(m.message) !== l.id);
      if (bad.length) return violated(`${bad.length} of ${notes.length} notifications lack the subscriptionId; first: ${String(bad[0][1].message.method)}`, bad.slice(0, 3).map(([l, m]) => ({ what: `${String(m.message.method)} on listen ${l.id}`, expected: { _meta: { 'io.modelcontextprotocol/subscriptionId': l.id } }, actual: clipJson(m.message), seq: [m.seq] })));
      return holds(`${notes.length} notification(s), each with its subscriptionId`);
    },
  }),
  check(subscriptionsScenario, {
    id: 'subscriptions.requested-only',
    title: 'a subscription carries only the notification types it asked for: no other types, no progress or log frames',
    requirements: ['SB-02', 'SB-11', 'TB-18'],
    level: 'MUST',
    versions: MODERN,
    spec: SUB26,
    judge(obs) {
      const none = allRefused(obs);
      if (none) return none;
      const all = listensOf(obs).flatMap((l) => {
        // Over HTTP everything on the listen's own SSE stream belongs to it, tagged or not.
        const stream = l.exchange.messages.filter((m): m is Record<string, unknown> => isObj(m) && typeof m.method === 'string' && !('id' in m));
        const tagged = l.window.filter((m) => subscriptionIdOf(m.message) === l.id).map((m) => m.message);
        return [...new Set([...ofListen(l).map((m) => m.message), ...tagged, ...stream])].map((m) => [l, m] as const);
      });
      const judged = all.filter(([, m]) => m.method !== ACK);
      if (judged.length === 0) return untestable(`no notification besides acknowledgements arrived on a subscription${obs.noTask ? ` (${obs.noTask})` : ''}`);
      const bad = judged.filter(([l, m]) => !requested(l.filter, m));
      if (bad.length) return violated(`${bad.length} notification(s) not asked for; first: ${String(bad[0][1].method)} on a listen for ${JSON.stringify(bad[0][0].filter)}`, bad.slice(0, 3).map(([l, m]) => ({ what: `${String(m.method)} on listen ${l.id}`, expected: l.filter, actual: clipJson(m) })));
      return holds(`${judged.length} notification(s), each asked for`);
    },
  }),
  check(legacyResourceSubscriptionScenario, {
    id: 'subscriptions.resources-legacy',
    title: 'with resources.subscribe declared, resources/subscribe and resources/unsubscribe of a listed resource are answered with an empty result',
    requirements: ['R25'],
    level: 'MUST',
    versions: ['2025-06-18', '2025-11-25'],
    requires: { capabilities: ['resources'] },
    spec: RESOURCES25,
    judge(obs, ctx) {
      if (!obs.declared) return skip('the server does not declare resources.subscribe');
      if (!obs.uri) return untestable(`resources/list gave no resource to subscribe to (${outcome(obs.list)})`);
      const empty = loadSchema(ctx.version).validator('EmptyResult');
      const bad = ([['resources/subscribe', obs.subscribe], ['resources/unsubscribe', obs.unsubscribe]] as [string, Exchange | undefined][]).filter(([, ex]) => {
        const r = ex?.response;
        return !(isObj(r) && isObj(r.result) && empty(r.result));
      });
      if (bad.length) return violated(bad.map(([w, ex]) => `${w} ${obs.uri} got ${outcome(ex)}`).join('; '), bad.map(([w, ex]) => evidence(w, ex, { expected: { result: {} } })));
      return holds(`subscribed to and unsubscribed from ${obs.uri} (no update can be provoked black-box)`);
    },
  }),
];
