// subscriptions/listen (2026-07-28, SUB26, SEP-2575): a listen for every list and every listed
// resource, read until its acknowledgement and then, bounded, until one of its notifications came
// twice (a server updates resources when they change; nothing here changes them, so silence is normal); with
// the tasks extension, a listen for one running task's id, read until the task's end is notified
// (TB-17) and, briefly, until the server ends the listen itself (SB-08). mcpspec ends each subscription
// it still holds: on stdio the session sends notifications/cancelled for the listen id, over HTTP it
// closes the SSE stream (SB-07); on stdio a listen that was delivering is then watched past a fence for
// notifications that should no longer come. Every read is bounded: by the request timeout for the
// acknowledgement, by QUIET_MS after it, by the tool timeout for a task.

import fc from 'fast-check';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { isObj, listAll, outcome, resultOf } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { mayCall, schemaProblem, type Tool } from '../tools/scenario.js';
import { declaring, pause, TASKS_EXTENSION, TERMINAL } from '../tasks/scenarios.js';
import { gentleSchema } from '../tools/gentle-arguments.js';

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
export const ACK = 'notifications/subscriptions/acknowledged';
/** Notification types a listen stream carries (core filter types + tasks extension). */
export const LISTEN_TYPES = new Set([
  ACK,
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/tasks',
]);

export interface Listen {
  /** The listen request's id (a string: SB-05 expects the identical value and type back). */
  id: string;
  filter: Record<string, unknown>;
  exchange: Exchange;
  /** Inbound notifications while the subscription was open, in arrival order. */
  window: { seq: number; message: Record<string, unknown> }[];
  /** Why reading stopped. */
  ended: 'ack' | 'task-end' | 'bound' | 'answered' | 'updates' | 'quiet';
  boundMs: number;
  /** stdio, a listen mcpspec ended while it was delivering: what came for it after a fence (SB-07). */
  afterEnd?: AfterEnd;
}

export interface AfterEnd {
  /** Recording seq of mcpspec's notifications/cancelled for the listen, and of the fence's answer. */
  cancelSeq?: number;
  fenceSeq?: number;
  /** How long mcpspec watched after the fence's answer (from the gaps between earlier notifications). */
  windowMs: number;
  /** Notifications carrying the listen's subscriptionId that arrived after the fence's answer. */
  late: { seq: number; message: Record<string, unknown> }[];
  /** Why nothing was watched (the fence went unanswered, ...). */
  why?: string;
}

/** How long to wait for notifications once a subscription is acknowledged (capped by the request timeout). */
export const QUIET_MS = 2000;
/** What identifies a notification across repeats: its method and the uri or task id it is about. */
function keyOf(m: Record<string, unknown>): string {
  const p = isObj(m.params) ? m.params : {};
  return `${String(m.method)} ${JSON.stringify(p.uri ?? p.taskId ?? '')}`;
}

/**
 * Whether the same notification (method and uri/taskId) came twice: that shows a subscription
 * delivering, with a cadence to watch its end by; and after its end, that it is still running (a
 * server sending one per resource per tick may have one batch on its way when a cancellation is read).
 */
export function repeated(messages: Record<string, unknown>[]): boolean {
  const seen = new Set<string>();
  for (const m of messages) {
    const key = keyOf(m);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

export interface SubscriptionsObs {
  lists: Listen;
  task?: Listen & { taskId: string };
  /** Why no task listen was made (tasks extension declared). */
  noTask?: string;
  tasksDeclared: boolean;
}

let listens = 0;

export const subscriptionIdOf = (m: Record<string, unknown>): unknown => (isObj(m.params) && isObj(m.params._meta) ? m.params._meta[SUBSCRIPTION_ID] : undefined);

/**
 * Open a subscription and read it until `done` says so (or the bound, or an answer to the listen
 * request), then end it. Messages are read from the session's recording as they arrive.
 */
export async function listenUntil(
  ctx: ScenarioContext,
  filter: Record<string, unknown>,
  done: (window: Listen['window'], id: string) => Listen['ended'] | undefined,
  boundMs: number,
  meta?: { metaOverrides: Record<string, unknown> },
  watchEnd = false,
): Promise<Listen> {
  const { session } = ctx;
  const id = `mcpspec-listen-${++listens}`;
  const seq0 = Math.max(0, ...session.events().map((e) => e.seq));
  const stop = new AbortController();
  let answered = false;
  const pending = session.request('subscriptions/listen', { notifications: filter }, { ...meta, id, signal: stop.signal, timeoutMs: boundMs + 5000 }).then((ex) => {
    answered = true;
    return ex;
  });
  const windowNow = (): Listen['window'] =>
    session.events().filter((e) => e.seq > seq0 && e.dir === 'in' && isObj(e.message) && typeof e.message.method === 'string' && !('id' in e.message)).map((e) => ({ seq: e.seq, message: e.message as Record<string, unknown> }));
  const started = Date.now();
  let ended: Listen['ended'] = 'bound';
  for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
    const why = done(windowNow(), id);
    if (why) {
      ended = why;
      break;
    }
    if (answered) {
      ended = 'answered';
      break;
    }
    if (Date.now() - started >= boundMs || ctx.signal.aborted) break;
    await pause(Math.min(wait, Math.max(1, boundMs - (Date.now() - started))), ctx.signal);
  }
  stop.abort();
  const exchange = await pending;
  const window = windowNow();
  const listen: Listen = { id, filter, exchange, window, ended, boundMs };
  if (watchEnd && exchange.aborted && session.kind === 'stdio' && !ctx.signal.aborted) {
    const mine = window.filter((m) => m.message.method !== ACK && subscriptionIdOf(m.message) === id);
    if (repeated(mine.map((m) => m.message))) listen.afterEnd = await watchAfterEnd(ctx, id, mine);
  }
  return listen;
}

/**
 * A watch window from the cadence of what came before: three times the longest gap between repeats of
 * the same notification, 300 ms at least, the request timeout at most.
 */
export function cadenceWindow(ctx: ScenarioContext, seen: { seq: number; message: Record<string, unknown> }[]): number {
  const at = new Map(ctx.session.events().map((e) => [e.seq, e.t]));
  const last = new Map<string, number>();
  let gap = 0;
  for (const m of seen) {
    const t = at.get(m.seq);
    if (t === undefined) continue;
    const key = keyOf(m.message);
    const before = last.get(key);
    if (before !== undefined) gap = Math.max(gap, t - before);
    last.set(key, t);
  }
  return Math.round(Math.min(ctx.options.timeoutMs, Math.max(300, 3 * gap)));
}

/**
 * After mcpspec ended a listen on stdio (its notifications/cancelled): a fence, whose answer shows the
 * server read the cancellation, then a window as long as a few of the gaps between the notifications
 * that were flowing. Anything for the subscription after the fence's answer came after its end.
 */
async function watchAfterEnd(ctx: ScenarioContext, id: string, seen: Listen['window']): Promise<AfterEnd> {
  const { session } = ctx;
  const windowMs = cadenceWindow(ctx, seen);
  const cancel = session.events().find((e) => e.dir === 'out' && isObj(e.message) && e.message.method === 'notifications/cancelled' && isObj(e.message.params) && e.message.params.requestId === id);
  const fence = await session.fence();
  const fenceSeq = fence.response ? Math.max(...fence.seq) : undefined;
  if (!cancel || fenceSeq === undefined) return { cancelSeq: cancel?.seq, windowMs, late: [], why: !cancel ? 'mcpspec sent no notifications/cancelled for it' : `the fence got ${outcome(fence)}` };
  await pause(windowMs, ctx.signal);
  const late = session.events()
    .filter((e) => e.seq > fenceSeq && e.dir === 'in' && isObj(e.message) && typeof e.message.method === 'string' && subscriptionIdOf(e.message as Record<string, unknown>) === id)
    .map((e) => ({ seq: e.seq, message: e.message as Record<string, unknown> }));
  return { cancelSeq: cancel.seq, fenceSeq, windowMs, late };
}

/** The listen's acknowledgement arrived (one without any subscriptionId counts: subscriptions.ack judges it). */
const acked = (w: Listen['window'], id: string) => (w.some((m) => m.message.method === ACK && [id, undefined].includes(subscriptionIdOf(m.message) as string)) ? 'ack' as const : undefined);

/** At most this many resources are subscribed to (each gets its own updates). */
const MAX_RESOURCES = 10;

/** The uris of the listed resources (every page, at most MAX_RESOURCES). */
async function listedUris(session: ScenarioContext['session']): Promise<{ uris: string[]; list: Exchange[] }> {
  const listed = await listAll((cursor) => session.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources', 5);
  const uris = listed.items.map((r) => (isObj(r) ? r.uri : undefined)).filter((u): u is string => typeof u === 'string');
  return { uris: [...new Set(uris)].slice(0, MAX_RESOURCES), list: listed.pages };
}

/**
 * Read a listen until its acknowledgement, then until the same notification of its own came twice (see repeated) or
 * `quietMs` passed since the acknowledgement (silence is no failure: servers notify on change).
 */
function delivering(quietMs: number) {
  let ackAt: number | undefined;
  return (w: Listen['window'], id: string): Listen['ended'] | undefined => {
    if (ackAt === undefined && acked(w, id)) ackAt = Date.now();
    if (ackAt === undefined) return undefined;
    if (repeated(w.filter((m) => m.message.method !== ACK && subscriptionIdOf(m.message) === id).map((m) => m.message))) return 'updates';
    return Date.now() - ackAt >= quietMs ? 'quiet' : undefined;
  };
}

/** A task to listen to: the first callable tool that answers a call declaring the extension with a task. */
async function startTask(ctx: ScenarioContext, ext: { metaOverrides: Record<string, unknown> }): Promise<{ taskId?: string; why?: string }> {
  const { session, options } = ctx;
  const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
  const tools = listed.items.filter((t): t is Tool => typeof t.name === 'string' && !mayCall(t as Tool, options) && !schemaProblem(t.inputSchema));
  const answers: string[] = [];
  for (const tool of tools.slice(0, 5)) {
    let args: unknown;
    try {
      [args] = fc.sample(schemaArbitraries(gentleSchema(tool.inputSchema as Record<string, unknown>), { maxDepth: 2 }).valid, { seed: options.seed, numRuns: 1 });
    } catch {
      continue;
    }
    const ex = await session.request('tools/call', { name: tool.name, arguments: args }, { ...ext, timeoutMs: options.toolTimeoutMs ?? options.timeoutMs });
    const r = resultOf(ex);
    if (r?.resultType === 'task' && typeof r.taskId === 'string') return { taskId: r.taskId };
    answers.push(`${tool.name}: ${outcome(ex)}`);
  }
  return { why: answers.length ? `no tool call declaring the tasks extension got a task (${answers.slice(0, 3).join('; ')})` : 'no tool could be called' };
}

export const subscriptionsScenario = scenario<SubscriptionsObs>({
  id: 'subscriptions',
  title: 'subscriptions/listen for every list and resource, and (tasks extension) for a running task',
  versions: ['2026-07-28'],
  // It waits QUIET_MS for notifications after the acknowledgement: the longest fixed wait of a run.
  startEarly: 'first',
  async run(ctx) {
    const { session, options } = ctx;
    const caps = session.capabilities;
    const ext = caps.extensions;
    const tasksDeclared = isObj(ext) && TASKS_EXTENSION in ext;
    const filter: Record<string, unknown> = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
    if (isObj(caps.resources)) {
      const uris = (await listedUris(session)).uris;
      if (uris.length) filter.resourceSubscriptions = uris;
    }
    const quietMs = Math.min(options.timeoutMs, QUIET_MS);
    const lists = listenUntil(ctx, filter, delivering(quietMs), options.timeoutMs + quietMs, undefined, true);
    const obs: SubscriptionsObs = { lists: await lists, tasksDeclared };
    if (tasksDeclared) {
      const meta = declaring(session);
      const started = await startTask(ctx, meta);
      if (!started.taskId) obs.noTask = started.why;
      else {
        const taskId = started.taskId;
        // After the task's end is notified, a short grace for the server to end the listen itself (SB-08).
        let endSeen: number | undefined;
        const grace = Math.min(options.timeoutMs, 500);
        const ended = (w: Listen['window']) => {
          if (endSeen === undefined && w.some((m) => m.message.method === 'notifications/tasks' && isObj(m.message.params) && m.message.params.taskId === taskId && TERMINAL.has(String(m.message.params.status)))) endSeen = Date.now();
          return endSeen !== undefined && Date.now() - endSeen >= grace ? 'task-end' as const : undefined;
        };
        const bound = Math.max(options.toolTimeoutMs ?? 0, options.timeoutMs);
        obs.task = { ...(await listenUntil(ctx, { taskIds: [taskId] }, ended, bound, meta)), taskId };
      }
    }
    return obs;
  },
});

// ---------------------------------------------------------------------------------------------
// Legacy resource subscriptions (2025-06-18, 2025-11-25; R25): resources/subscribe to every listed
// resource (at most MAX_RESOURCES), when resources.subscribe is declared; then, on stdio, a bounded
// wait for notifications/resources/updated (servers send them when a resource changes; nothing here
// changes one, so silence is normal), resources/unsubscribe of each, a fence, and a watch as long as a
// few of the gaps between the updates seen, for updates that should no longer come. Over HTTP the
// updates would come on the GET stream, which mcpspec does not open: no wait there.

export interface Update {
  seq: number;
  uri: unknown;
  message: Record<string, unknown>;
}

export interface LegacyResourceSubscriptionObs {
  declared: boolean;
  /** The first listed resource: its subscribe and unsubscribe are judged by subscriptions.resources-legacy. */
  uri?: string;
  subscribe?: Exchange;
  unsubscribe?: Exchange;
  list?: Exchange;
  /** Every resource subscribed to, with the seq of its subscribe request and of its unsubscribe's answer. */
  subscribed: { uri: string; subscribe: Exchange; sentSeq: number; unsubscribe?: Exchange }[];
  /** stdio only: updates that arrived between the first subscribe and the fence's answer. */
  updates: Update[];
  /** Why nothing was watched for, or how (stdio). */
  watched?: { quietMs: number; fenceSeq?: number; windowMs?: number; late: Update[]; why?: string };
}

const updatesSince = (session: ScenarioContext['session'], seq0: number, until = Infinity): Update[] =>
  session.events()
    .filter((e) => e.seq > seq0 && e.seq <= until && e.dir === 'in' && isObj(e.message) && e.message.method === 'notifications/resources/updated' && !('id' in e.message))
    .map((e) => {
      const m = e.message as Record<string, unknown>;
      return { seq: e.seq, uri: isObj(m.params) ? m.params.uri : undefined, message: m };
    });

export const legacyResourceSubscriptionScenario = scenario<LegacyResourceSubscriptionObs>({
  id: 'resource-subscriptions-legacy',
  title: 'resources/subscribe to every listed resource, updates awaited (stdio, bounded), then resources/unsubscribe (legacy)',
  versions: ['2025-06-18', '2025-11-25'],
  // Over stdio it waits QUIET_MS for updates after subscribing (as the modern scenario does).
  startEarly: 'first',
  async run(ctx) {
    const { session, options } = ctx;
    const res = session.capabilities.resources;
    const declared = isObj(res) && res.subscribe === true;
    if (!declared) return { declared, subscribed: [], updates: [] };
    const { uris, list } = await listedUris(session);
    if (!uris.length) return { declared, list: list[0], subscribed: [], updates: [] };
    const seq0 = Math.max(0, ...session.events().map((e) => e.seq));
    // All at once (the order of subscriptions means nothing), as are the unsubscribes below.
    const subscribes = await Promise.all(uris.map((uri) => session.request('resources/subscribe', { uri })));
    const subscribed: LegacyResourceSubscriptionObs['subscribed'] = uris.map((uri, i) => ({ uri, subscribe: subscribes[i], sentSeq: Math.min(...subscribes[i].seq) }));
    const obs: LegacyResourceSubscriptionObs = { declared, uri: uris[0], subscribe: subscribed[0].subscribe, list: list[0], subscribed, updates: [] };
    const stdio = session.kind === 'stdio';
    const quietMs = Math.min(options.timeoutMs, QUIET_MS);
    if (stdio) {
      const started = Date.now();
      for (let wait = 10; !repeated(updatesSince(session, seq0).map((u) => u.message)) && Date.now() - started < quietMs && !ctx.signal.aborted; wait = Math.min(wait * 2, 100)) {
        await pause(Math.min(wait, Math.max(1, quietMs - (Date.now() - started))), ctx.signal);
      }
    }
    await Promise.all(subscribed.map(async (s) => void (s.unsubscribe = await session.request('resources/unsubscribe', { uri: s.uri }))));
    obs.unsubscribe = subscribed[0].unsubscribe;
    if (!stdio) return obs;
    const fence = await session.fence();
    const fenceSeq = fence.response ? Math.max(...fence.seq) : undefined;
    obs.updates = updatesSince(session, seq0, fenceSeq ?? Infinity);
    if (fenceSeq === undefined) {
      obs.watched = { quietMs, late: [], why: `the fence after resources/unsubscribe got ${outcome(fence)}` };
      return obs;
    }
    if (!repeated(obs.updates.map((u) => u.message))) {
      obs.watched = { quietMs, fenceSeq, late: [], why: `${obs.updates.length} update(s) arrived within ${quietMs} ms of subscribing, none repeated: too few to tell silence after unsubscribing from silence before` };
      return obs;
    }
    const windowMs = cadenceWindow(ctx, obs.updates);
    await pause(windowMs, ctx.signal);
    obs.watched = { quietMs, fenceSeq, windowMs, late: updatesSince(session, fenceSeq) };
    return obs;
  },
});
