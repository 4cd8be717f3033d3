// Mutations of subscriptions (requirements digest §10 SB-01..SB-13, MT-08): modern
// subscriptions/listen streams (the acknowledgement first, the subscriptionId on every frame, only
// the notification types asked for and honoured, nothing request-scoped, nothing after the client
// ended it) and legacy resources/subscribe with list_changed notifications (whose rules the digest
// states as LC-07, negotiated capabilities only, and CAP-01). The listen requests going by are
// remembered with their filter, so a stdio stream's notifications are known by their subscriptionId.

import { isRequest, type RequestId } from '../../protocol/jsonrpc.js';
import { isObj, onAnswer, onError, onResult } from '../edits.js';
import { withHttpStatus } from './input-required.js';
import { mutation, SERVER_LEGACY as legacy, SERVER_MODERN as modern, type Emitted, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const ACK = 'notifications/subscriptions/acknowledged';
const LIST_CHANGED: [filter: string, method: string, capability: string][] = [
  ['toolsListChanged', 'notifications/tools/list_changed', 'tools'],
  ['promptsListChanged', 'notifications/prompts/list_changed', 'prompts'],
  ['resourcesListChanged', 'notifications/resources/list_changed', 'resources'],
];

interface Listen {
  id: RequestId;
  filter: Obj;
  progressToken?: string | number;
  /** The last notification the server sent on it (ack included). */
  last?: Obj;
}

function key(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

function listens(ctx: MutationContext): Map<string, Listen> {
  if (!(ctx.state.listens instanceof Map)) ctx.state.listens = new Map<string, Listen>();
  return ctx.state.listens as Map<string, Listen>;
}

function subscriptionIdOf(m: Obj): unknown {
  return isObj(m.params) && isObj(m.params._meta) ? m.params._meta[SUBSCRIPTION_ID] : undefined;
}

/** The listen stream a notification is on: by its subscriptionId, or (HTTP) by the listen request of its stream. */
function listenOf(m: Obj, ctx: MutationContext): Listen | undefined {
  const sid = subscriptionIdOf(m);
  if (sid !== undefined) return listens(ctx).get(key(sid)) ?? (typeof sid === 'string' || typeof sid === 'number' ? { id: sid, filter: {} } : undefined);
  const req = ctx.request;
  if (req?.method !== 'subscriptions/listen') return undefined;
  return listens(ctx).get(key(req.id)) ?? { id: req.id, filter: isObj(req.params.notifications) ? req.params.notifications : {} };
}

function note(method: string, sid: RequestId, params: Obj = {}): Obj {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [SUBSCRIPTION_ID]: sid } } };
}

/** What the ack says the server honours. */
function honoured(ack: Obj): Obj {
  return isObj(ack.params) && isObj(ack.params.notifications) ? ack.params.notifications : {};
}

/** A notification of a type the filter did not ask for (SB-02). */
function unrequested(filter: Obj, sid: RequestId): Obj {
  const type = LIST_CHANGED.find(([f]) => filter[f] !== true);
  return type ? note(type[1], sid) : note('notifications/resources/updated', sid, { uri: 'mcpspec://not-subscribed' });
}

/** A notification of a type the ack honours (none when only task ids are honoured). */
function honouredNote(ack: Obj, sid: RequestId): Obj | undefined {
  const h = honoured(ack);
  if (Array.isArray(h.resourceSubscriptions) && typeof h.resourceSubscriptions[0] === 'string') return note('notifications/resources/updated', sid, { uri: h.resourceSubscriptions[0] });
  const type = LIST_CHANGED.find(([f]) => h[f] === true);
  return type ? note(type[1], sid) : undefined;
}

type ListenEdit = (m: Obj, listen: Listen, ctx: MutationContext, isAck: boolean) => Emitted[] | undefined;

/** Remembers listen requests, and hands the edit each notification on a listen stream. */
function onListen(edit: ListenEdit): Pick<MutationHooks, 'toServer' | 'toClient'> {
  return {
    toServer(m, ctx) {
      if (isRequest(m) && m.method === 'subscriptions/listen') {
        const params = isObj(m.params) ? m.params : {};
        const token = isObj(params._meta) ? params._meta.progressToken : undefined;
        listens(ctx).set(key(m.id), { id: m.id, filter: isObj(params.notifications) ? params.notifications : {}, progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined });
      }
      return undefined;
    },
    toClient(m, ctx) {
      if ('id' in m || typeof m.method !== 'string' || !m.method.startsWith('notifications/')) return undefined;
      const listen = listenOf(m, ctx);
      if (!listen) return undefined;
      const original = structuredClone(m);
      const out = edit(m, listen, ctx, m.method === ACK);
      listen.last = original;
      return out;
    },
  };
}

/** The sent subscriptionId made wrong: another number, or the string suffixed. */
function otherId(sid: unknown): unknown {
  return typeof sid === 'number' ? sid + 1000 : `${String(sid)}-other`;
}

export const SUBSCRIPTIONS_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'subscriptions.ack-missing',
    requirements: ['SB-03'],
    description: 'notifications/subscriptions/acknowledged is never sent: listen streams start with their first notification',
    ...onListen((_m, _l, _c, isAck) => (isAck ? [] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.ack-not-first',
    requirements: ['SB-03'],
    description: 'a notification of an honoured type (resources/updated of a subscribed uri, a requested list_changed) precedes the ack; with only task ids honoured, the ack is held back until after the first notification',
    ...onListen((m, listen, ctx, isAck) => {
      if (!(ctx.state.held instanceof Map)) ctx.state.held = new Map<string, Obj>();
      const held = ctx.state.held as Map<string, Obj>;
      const k = key(listen.id);
      if (!isAck) {
        const ack = held.get(k);
        if (!ack) return undefined;
        held.delete(k);
        return [m, ack];
      }
      const first = honouredNote(m, listen.id);
      if (first) return [first, m];
      // Held back only when something will follow (task notifications); an ack that honours nothing stays first.
      const tasks = honoured(m).taskIds;
      if (!Array.isArray(tasks) || tasks.length === 0) return undefined;
      held.set(k, m);
      return [];
    }),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.ack-not-subset',
    requirements: ['SB-03'],
    related: ['SB-04'],
    description: 'the ack lists a notification type the listen request did not ask for (a list_changed flag set true, or an extra resource uri)',
    ...onListen((m, listen, _ctx, isAck) => {
      if (!isAck || !isObj(m.params)) return undefined;
      const h: Obj = { ...honoured(m) };
      const type = LIST_CHANGED.find(([f]) => listen.filter[f] !== true);
      if (type) h[type[0]] = true;
      else h.resourceSubscriptions = [...(Array.isArray(h.resourceSubscriptions) ? h.resourceSubscriptions : []), 'mcpspec://not-requested'];
      m.params.notifications = h;
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.ack-honours-undeclared',
    requirements: ['SB-03'],
    related: ['SB-12'],
    description: 'the ack claims the list_changed types the client asked for but the server did not advertise (no listChanged in server/discover capabilities)',
    toServer: onListen(() => undefined).toServer,
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'server/discover' && isObj(m.result.capabilities)) ctx.state.capabilities = m.result.capabilities;
      if (m.method !== ACK || 'id' in m || !isObj(m.params)) return undefined;
      const listen = listenOf(m, ctx);
      const caps = isObj(ctx.state.capabilities) ? ctx.state.capabilities : {};
      if (!listen) return undefined;
      const h: Obj = { ...honoured(m) };
      let changed = false;
      for (const [f, , cap] of LIST_CHANGED) {
        const advertised = isObj(caps[cap]) && (caps[cap] as Obj).listChanged === true;
        if (listen.filter[f] === true && h[f] !== true && !advertised) {
          h[f] = true;
          changed = true;
        }
      }
      if (!changed) return undefined;
      m.params.notifications = h;
      return [m];
    },
  }),
  mutation({
    ...modern,
    id: 'subscriptions.wrong-subscription-id',
    requirements: ['SB-05', 'MT-08'],
    description: 'notifications on a listen stream after the ack carry another subscriptionId (numeric ids plus 1000, string ids suffixed "-other")',
    ...onListen((m, _l, _c, isAck) => {
      const sid = subscriptionIdOf(m);
      if (isAck || sid === undefined || !isObj(m.params) || !isObj(m.params._meta)) return undefined;
      m.params._meta[SUBSCRIPTION_ID] = otherId(sid);
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.notification-without-id',
    requirements: ['MT-08', 'SB-05'],
    description: 'notifications on a listen stream after the ack lack _meta["io.modelcontextprotocol/subscriptionId"]',
    ...onListen((m, _l, _c, isAck) => {
      if (isAck || subscriptionIdOf(m) === undefined || !isObj(m.params) || !isObj(m.params._meta)) return undefined;
      delete m.params._meta[SUBSCRIPTION_ID];
      if (Object.keys(m.params._meta).length === 0) delete m.params._meta;
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.unrequested-type',
    requirements: ['SB-02'],
    description: 'right after the ack, the stream carries a notification of a type the listen request did not ask for (a list_changed, else resources/updated of an unsubscribed uri)',
    ...onListen((m, listen, _c, isAck) => (isAck ? [m, unrequested(listen.filter, listen.id)] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.unsubscribed-resource',
    requirements: ['SB-02'],
    description: 'notifications/resources/updated on a listen stream name a uri that was not subscribed (the subscribed uri suffixed "-not-subscribed")',
    ...onListen((m) => {
      if (m.method !== 'notifications/resources/updated' || !isObj(m.params) || typeof m.params.uri !== 'string') return undefined;
      m.params.uri = `${m.params.uri}-not-subscribed`;
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.log-on-stream',
    requirements: ['SB-11'],
    related: ['LG-01'],
    description: 'right after the ack, the listen stream carries a notifications/message (with the subscriptionId)',
    ...onListen((m, listen, _c, isAck) => (isAck ? [m, note('notifications/message', listen.id, { level: 'info', logger: 'subscriptions', data: 'listening' })] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.progress-on-stream',
    requirements: ['SB-11'],
    related: ['PR-01'],
    description: "right after the ack, the listen stream carries a notifications/progress (the listen request's progressToken, else its id)",
    ...onListen((m, listen, _c, isAck) => (isAck ? [m, note('notifications/progress', listen.id, { progressToken: listen.progressToken ?? listen.id, progress: 1 })] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.list-changed-dropped',
    requirements: ['SB-12'],
    description: 'list_changed notifications are never delivered on listen streams that asked for them',
    ...onListen((m, _l, _c, isAck) => (!isAck && LIST_CHANGED.some(([, method]) => method === m.method) ? [] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'subscriptions.end-without-subscription-id',
    requirements: ['SB-08'],
    description: 'the result that ends a listen stream from the server side lacks _meta["io.modelcontextprotocol/subscriptionId"]',
    ...onResult(['subscriptions/listen'], (r) => {
      if (!isObj(r._meta) || !(SUBSCRIPTION_ID in r._meta)) return false;
      delete r._meta[SUBSCRIPTION_ID];
      return true;
    }),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['stdio'],
    id: 'subscriptions.notifies-after-cancel',
    requirements: ['CN-03'],
    related: ['SB-07'],
    description: 'when the client ends a stdio listen stream with notifications/cancelled, the server sends one more notification on it (a copy of its last one)',
    toServer(m, ctx) {
      const hooks = onListen(() => undefined);
      hooks.toServer?.(m, ctx);
      if (m.method !== 'notifications/cancelled' || 'id' in m || !isObj(m.params)) return undefined;
      const listen = listens(ctx).get(key(m.params.requestId));
      if (!listen?.last) return undefined;
      ctx.reply(structuredClone(listen.last));
      return [m];
    },
    toClient: onListen(() => undefined).toClient,
  }),

  // --- legacy: resources/subscribe, list_changed ------------------------------------------------
  mutation({
    ...legacy,
    id: 'subscriptions.legacy-updated-unsubscribed',
    requirements: ['SB-02'],
    related: ['LC-07', 'R25'],
    description: 'legacy notifications/resources/updated name a uri nobody subscribed to (the subscribed uri suffixed "-not-subscribed")',
    toClient(m) {
      if ('id' in m || m.method !== 'notifications/resources/updated' || !isObj(m.params) || typeof m.params.uri !== 'string') return undefined;
      m.params.uri = `${m.params.uri}-not-subscribed`;
      return [m];
    },
  }),
  mutation({
    ...legacy,
    id: 'subscriptions.legacy-updated-after-unsubscribe',
    requirements: ['SB-02'],
    related: ['LC-07', 'R25'],
    description: 'right after answering resources/unsubscribe, the server sends notifications/resources/updated for the uri just unsubscribed',
    ...onAnswer(['resources/unsubscribe'], (m, ctx) => {
      const uri = ctx.request?.params.uri;
      if (!isObj(m.result) || typeof uri !== 'string') return undefined;
      return [m, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } }];
    }),
  }),
  mutation({
    ...legacy,
    id: 'subscriptions.legacy-list-changed-undeclared',
    requirements: ['LC-07'],
    related: ['SB-12'],
    description: 'in a legacy session, after answering tools/list, prompts/list or resources/list the server sends that list_changed notification although initialize did not declare listChanged for it',
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'initialize' && isObj(m.result.capabilities)) {
        ctx.state.capabilities = m.result.capabilities;
        return undefined;
      }
      const kind = ctx.request?.method.split('/')[0];
      const type = LIST_CHANGED.find(([, , cap]) => cap === kind);
      if (!isObj(m.result) || !type || ctx.request?.method !== `${kind}/list` || !isObj(ctx.state.capabilities)) return undefined;
      const cap = ctx.state.capabilities[type[2]];
      if (isObj(cap) && cap.listChanged === true) return undefined;
      return [m, { jsonrpc: '2.0', method: type[1] }];
    },
  }),
  mutation({
    ...legacy,
    id: 'subscriptions.legacy-subscribe-undeclared',
    requirements: ['CAP-01'],
    related: ['LC-07', 'R25'],
    description: 'resources/subscribe at a server without the resources.subscribe capability gets an empty success instead of -32601',
    ...withHttpStatus(200, onError(['resources/subscribe', 'resources/unsubscribe'], (e, _ctx, m) => {
      if (e.code !== -32601) return false;
      delete m.error;
      m.result = {};
      return true;
    })),
  }),
];
