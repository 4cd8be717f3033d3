// subscriptions/listen (2026-07-28, SUB26, SEP-2575): a listen for every list and resource the server
// has, read until its acknowledgement; with the tasks extension, a listen for one running task's id,
// read until the task's end is notified (TB-17). mcpspec ends each subscription itself: on stdio the
// session sends notifications/cancelled for the listen id, over HTTP it closes the SSE stream (SB-07).
// Every read is bounded: by the request timeout for the acknowledgement, by the tool timeout for a task.

import fc from 'fast-check';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { isObj, listAll, outcome, resultOf } from '../exchange.js';
import type { Exchange } from '../ports.js';
import { scenario, type ScenarioContext } from '../scenario.js';
import { mayCall, schemaProblem, type Tool } from './tools.js';
import { declaring, pause, TASKS_EXTENSION, TERMINAL } from './tasks.js';
import { gentleSchema } from '../gentle-arguments.js';

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
  ended: 'ack' | 'task-end' | 'bound' | 'answered';
  boundMs: number;
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
  return { id, filter, exchange, window: windowNow(), ended, boundMs };
}

/** The listen's acknowledgement arrived (one without any subscriptionId counts: subscriptions.ack judges it). */
const acked = (w: Listen['window'], id: string) => (w.some((m) => m.message.method === ACK && [id, undefined].includes(subscriptionIdOf(m.message) as string)) ? 'ack' as const : undefined);

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
  async run(ctx) {
    const { session, options } = ctx;
    const caps = session.capabilities;
    const ext = caps.extensions;
    const tasksDeclared = isObj(ext) && TASKS_EXTENSION in ext;
    const filter: Record<string, unknown> = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
    if (isObj(caps.resources)) {
      const first = resultOf(await session.request('resources/list', {}));
      const uri = Array.isArray(first?.resources) && isObj(first.resources[0]) ? first.resources[0].uri : undefined;
      if (typeof uri === 'string') filter.resourceSubscriptions = [uri];
    }
    const lists = listenUntil(ctx, filter, acked, options.timeoutMs);
    const obs: SubscriptionsObs = { lists: await lists, tasksDeclared };
    if (tasksDeclared) {
      const meta = declaring(session);
      const started = await startTask(ctx, meta);
      if (!started.taskId) obs.noTask = started.why;
      else {
        const taskId = started.taskId;
        const ended = (w: Listen['window']) => (w.some((m) => m.message.method === 'notifications/tasks' && isObj(m.message.params) && m.message.params.taskId === taskId && TERMINAL.has(String(m.message.params.status))) ? 'task-end' as const : undefined);
        const bound = Math.max(options.toolTimeoutMs ?? 0, options.timeoutMs);
        obs.task = { ...(await listenUntil(ctx, { taskIds: [taskId] }, ended, bound, meta)), taskId };
      }
    }
    return obs;
  },
});

// ---------------------------------------------------------------------------------------------
// Legacy resource subscriptions (2025-06-18, 2025-11-25; R25): resources/subscribe and
// resources/unsubscribe of a listed resource, when resources.subscribe is declared. Whether
// notifications/resources/updated follows cannot be provoked black-box (nothing changes a resource).

export interface LegacyResourceSubscriptionObs {
  declared: boolean;
  uri?: string;
  subscribe?: Exchange;
  unsubscribe?: Exchange;
  list?: Exchange;
}

export const legacyResourceSubscriptionScenario = scenario<LegacyResourceSubscriptionObs>({
  id: 'resource-subscriptions-legacy',
  title: 'resources/subscribe and resources/unsubscribe of a listed resource (legacy)',
  versions: ['2025-06-18', '2025-11-25'],
  async run({ session }) {
    const res = session.capabilities.resources;
    const declared = isObj(res) && res.subscribe === true;
    if (!declared) return { declared };
    const list = await session.request('resources/list', {});
    const first = resultOf(list)?.resources;
    const uri = Array.isArray(first) && isObj(first[0]) && typeof first[0].uri === 'string' ? first[0].uri : undefined;
    if (!uri) return { declared, list };
    const subscribe = await session.request('resources/subscribe', { uri });
    const unsubscribe = await session.request('resources/unsubscribe', { uri });
    return { declared, uri, subscribe, unsubscribe, list };
  },
});
