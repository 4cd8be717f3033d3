// Mutations of the tasks area (requirements digest §9): TA-* for the 2025-11-25 core tasks of legacy
// sessions (task-augmented requests, CreateTaskResult {task}, tasks/get, tasks/result, tasks/list,
// tasks/cancel), TB-* for the tasks extension of the modern era (io.modelcontextprotocol/tasks: a flat
// CreateTaskResult with resultType "task", DetailedTask from tasks/get, tasks/update and tasks/cancel
// acks, notifications/tasks on listen streams). Mutations that act across messages keep a book of
// the tasks they saw go by (last status, last task object, whether it was ever seen terminal).

import { randomUUID } from 'node:crypto';
import { isRequest } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { isObj, list, onError, onNotification, onResult, onServerRequest, drop } from '../edits.js';
import { withHttpStatus } from './input-required.js';
import { mutation, SERVER_ANY as server, SERVER_LEGACY as legacy, SERVER_MODERN as modern, type Emitted, type Mutation, type MutationContext, type MutationHooks, type SeenRequest } from '../mutation.js';

type Obj = Record<string, unknown>;

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** The methods that name a task by params.taskId. */
const TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/update'];

interface Seen {
  status: string;
  /** The last task object seen for it (as the server sent it). */
  task: Obj;
  /** Seen in a terminal status at least once. */
  terminal: boolean;
  /** Client capabilities the creating request declared. */
  caps?: Obj;
}

function capsOf(req: SeenRequest | undefined): Obj {
  const meta = req?.params._meta;
  const caps = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObj(caps) ? caps : {};
}

function declaresTasks(req: SeenRequest | undefined): boolean {
  const ext = capsOf(req).extensions;
  return isObj(ext) && TASKS_EXTENSION in ext;
}

function taskIdOf(req: SeenRequest | undefined): string | undefined {
  const id = req?.params.taskId;
  return typeof id === 'string' ? id : undefined;
}

function isTask(v: unknown): v is Obj & { taskId: string; status: string } {
  return isObj(v) && typeof v.taskId === 'string' && typeof v.status === 'string';
}

/** The task objects a server message carries, in either flavour. */
function tasksIn(m: Obj, ctx: MutationContext): Obj[] {
  const method = ctx.request?.method;
  if (isObj(m.result)) {
    const r = m.result;
    if (method === 'tools/call' && isTask(r.task)) return [r.task];
    if (method === 'tools/call' && r.resultType === 'task' && isTask(r)) return [r];
    if ((method === 'tasks/get' || method === 'tasks/cancel') && isTask(r)) return [r];
    if (method === 'tasks/list') return (list(r, 'tasks', 0) ?? []).filter(isTask);
    return [];
  }
  if ((m.method === 'notifications/tasks' || m.method === 'notifications/tasks/status') && !('id' in m) && isTask(m.params)) return [m.params];
  return [];
}

function taskBook(ctx: MutationContext): Map<string, Seen> {
  if (!(ctx.state.tasks instanceof Map)) ctx.state.tasks = new Map<string, Seen>();
  return ctx.state.tasks as Map<string, Seen>;
}

type TaskEdit = (m: Obj, ctx: MutationContext, seen: Map<string, Seen>) => Emitted[] | undefined;

/**
 * Runs the edit with the book as it was before this message, then books the tasks the message
 * carried as the server sent them (the edit may change the message, never the book).
 */
function tracking(edit: TaskEdit): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      const found = tasksIn(m, ctx).map((t) => structuredClone(t) as Obj & { taskId: string; status: string });
      const out = edit(m, ctx, taskBook(ctx));
      for (const t of found) {
        const before = taskBook(ctx).get(t.taskId);
        const creating = ctx.request?.method === 'tools/call';
        taskBook(ctx).set(t.taskId, { status: t.status, task: t, terminal: (before?.terminal ?? false) || TERMINAL.has(t.status), caps: before?.caps ?? (creating ? capsOf(ctx.request) : undefined) });
      }
      return out;
    },
  };
}

/** The result of the message when it answers one of these methods. */
function resultTo(m: Obj, ctx: MutationContext, methods: string[]): Obj | undefined {
  return isObj(m.result) && methods.includes(ctx.request?.method ?? '') ? m.result : undefined;
}

function now(): string {
  return new Date().toISOString();
}

/** An input request using a capability the request declared (none: undefined); `round` makes it ask something else. */
function askWithin(caps: Obj, round: number): Obj | undefined {
  if ('elicitation' in caps) {
    const message = round === 0 ? 'Which region should the report cover?' : 'Should the report be published?';
    const property = round === 0 ? { region: { type: 'string' } } : { publish: { type: 'boolean' } };
    return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: property } } };
  }
  if ('sampling' in caps) {
    const text = round === 0 ? 'Suggest a title for the report' : 'Translate the report into French';
    return { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100 } };
  }
  if ('roots' in caps) return { method: 'roots/list', params: round === 0 ? {} : { _meta: { 'com.example/round': round } } };
  return undefined;
}

/** Legacy tools that must run as tasks (execution.taskSupport "required"), from the tools/list answers. */
function requiredTaskTools(m: Obj, ctx: MutationContext): Set<string> {
  if (!(ctx.state.required instanceof Set)) ctx.state.required = new Set<string>();
  const set = ctx.state.required as Set<string>;
  if (isObj(m.result) && ctx.request?.method === 'tools/list') {
    for (const t of list(m.result, 'tools', 0) ?? []) {
      if (isObj(t) && typeof t.name === 'string' && isObj(t.execution) && t.execution.taskSupport === 'required') set.add(t.name);
    }
  }
  return set;
}

export const TASKS_MUTATIONS: Mutation[] = [
  // --- 2025-11-25 core tasks (legacy sessions) ---------------------------------------------------
  mutation({
    ...legacy,
    id: 'tasks.legacy-terminal-status-changes',
    requirements: ['TA-06'],
    description: 'tasks/get of a task already seen in a terminal status reports it "working" again',
    ...tracking((m, ctx, seen) => {
      const r = resultTo(m, ctx, ['tasks/get']);
      if (!isTask(r) || !seen.get(r.taskId)?.terminal || !TERMINAL.has(r.status)) return undefined;
      r.status = 'working';
      delete r.statusMessage;
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-no-created-at',
    requirements: ['TA-08'],
    description: 'every task object (CreateTaskResult, tasks/get, tasks/list, tasks/cancel, status notifications) lacks createdAt',
    ...tracking((m, ctx) => {
      const tasks = tasksIn(m, ctx).filter((t) => 'createdAt' in t);
      for (const t of tasks) delete t.createdAt;
      return tasks.length ? [m] : undefined;
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-result-no-related-task',
    requirements: ['TA-10'],
    related: ['TA-12'],
    description: 'tasks/result answers lack _meta["io.modelcontextprotocol/related-task"]',
    ...onResult(['tasks/result'], (r) => {
      if (!isObj(r._meta) || !(RELATED_TASK in r._meta)) return false;
      delete r._meta[RELATED_TASK];
      if (Object.keys(r._meta).length === 0) delete r._meta;
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-result-is-task',
    requirements: ['TA-10'],
    description: "tasks/result returns the task object (as tasks/get would) instead of the underlying request's result",
    ...tracking((m, ctx, seen) => {
      const r = resultTo(m, ctx, ['tasks/result']);
      const taskId = taskIdOf(ctx.request);
      if (!r || taskId === undefined || isTask(r)) return undefined;
      const known = seen.get(taskId);
      const at = now();
      const task: Obj = known ? { ...known.task } : { taskId, createdAt: at, ttl: null };
      task.status = known && TERMINAL.has(known.status) ? known.status : 'completed';
      task.lastUpdatedAt = known && TERMINAL.has(known.status) ? known.task.lastUpdatedAt : at;
      m.result = { ...task, ...(isObj(r._meta) ? { _meta: r._meta } : {}) };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-result-not-blocking',
    requirements: ['TA-10'],
    description: 'tasks/result for a task last seen working or input_required is answered at once with an empty CallToolResult instead of blocking until the task ends',
    toServer(m, ctx) {
      if (!isRequest(m) || m.method !== 'tasks/result' || !isObj(m.params) || typeof m.params.taskId !== 'string') return undefined;
      const known = taskBook(ctx).get(m.params.taskId);
      if (!known || TERMINAL.has(known.status)) return undefined;
      ctx.reply({ jsonrpc: '2.0', id: m.id, result: { content: [], _meta: { [RELATED_TASK]: { taskId: m.params.taskId } } } });
      return [];
    },
    ...tracking(() => undefined),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-cancel-not-cancelled',
    requirements: ['TA-15'],
    description: 'the tasks/cancel answer reports the task still "working" (it is cancelled only after the answer)',
    ...onResult(['tasks/cancel'], (r) => {
      if (r.status !== 'cancelled') return false;
      r.status = 'working';
      delete r.statusMessage;
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-cancel-terminal-accepted',
    requirements: ['TA-14'],
    description: 'tasks/cancel of a task already in a terminal status returns the task unchanged instead of -32602',
    ...tracking((m, ctx, seen) => {
      const taskId = taskIdOf(ctx.request);
      const known = taskId === undefined ? undefined : seen.get(taskId);
      if (ctx.request?.method !== 'tasks/cancel' || !isObj(m.error) || m.error.code !== -32602 || !known || !TERMINAL.has(known.status)) return undefined;
      delete m.error;
      m.result = { ...known.task };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-required-runs-sync',
    requirements: ['TA-03'],
    description: 'tools/call without params.task of a tool whose execution.taskSupport is "required" runs synchronously (a plain CallToolResult) instead of -32601',
    toClient(m, ctx) {
      const required = requiredTaskTools(m, ctx);
      const req = ctx.request;
      if (req?.method !== 'tools/call' || !isObj(m.error) || 'task' in req.params || typeof req.params.name !== 'string' || !required.has(req.params.name)) return undefined;
      delete m.error;
      m.result = { content: [{ type: 'text', text: `${req.params.name} ran without a task.` }] };
      return [m];
    },
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-create-plain-result',
    requirements: ['TA-07'],
    related: ['TA-05'],
    description: 'a task-augmented tools/call the server accepted as a task (CreateTaskResult) is answered with a plain CallToolResult instead',
    ...onResult(['tools/call'], (r, ctx) => {
      if (!('task' in (ctx.request?.params ?? {})) || !isTask(r.task)) return false;
      delete r.task;
      r.content = [{ type: 'text', text: 'done (no task was created)' }];
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-task-unrequested',
    requirements: ['TA-04'],
    related: ['TA-01', 'TA-02'],
    description: 'the first tools/call without params.task that gets a plain CallToolResult is answered with a CreateTaskResult (status working) instead',
    ...onResult(['tools/call'], (r, ctx) => {
      if (ctx.applied > 0 || 'task' in (ctx.request?.params ?? {}) || !Array.isArray(r.content)) return false;
      const at = now();
      for (const k of Object.keys(r)) if (k !== '_meta') delete r[k];
      r.task = { taskId: randomUUID(), status: 'working', createdAt: at, lastUpdatedAt: at, ttl: 60_000, pollInterval: 1000 };
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-list-drops-next-cursor',
    requirements: ['TA-18'],
    description: 'tasks/list pages lack nextCursor although more tasks follow (the listing stops at page one)',
    ...onResult(['tasks/list'], (r) => drop(r, 'nextCursor')),
  }),

  mutation({
    ...legacy,
    id: 'tasks.legacy-duplicate-task-id',
    requirements: ['TA-05'],
    description: 'every CreateTaskResult after the first reuses the first task\'s taskId (the new task gets no id of its own)',
    toClient(m, ctx) {
      const r = resultTo(m, ctx, ['tools/call']);
      if (!r || !isTask(r.task)) return undefined;
      if (typeof ctx.state.firstId !== 'string') {
        ctx.state.firstId = r.task.taskId;
        return undefined;
      }
      if (r.task.taskId === ctx.state.firstId) return undefined;
      r.task.taskId = ctx.state.firstId;
      return [m];
    },
  }),
  mutation({
    ...legacy,
    id: 'tasks.legacy-side-request-no-related-task',
    requirements: ['TA-11'],
    related: ['TA-12'],
    description: 'requests the server sends for a task (elicitation, sampling, roots during input_required) lack _meta["io.modelcontextprotocol/related-task"]',
    ...onServerRequest(['elicitation/create', 'sampling/createMessage', 'roots/list'], (m) => {
      if (!isObj(m.params) || !isObj(m.params._meta) || !(RELATED_TASK in m.params._meta)) return undefined;
      delete m.params._meta[RELATED_TASK];
      if (Object.keys(m.params._meta).length === 0) delete m.params._meta;
      return [m];
    }),
  }),

  // --- the tasks extension (modern) ---------------------------------------------------------------
  mutation({
    ...modern,
    id: 'tasks.create-without-extension',
    requirements: ['TB-03'],
    // An extension used with a client that does not support it (EX-03: fall back or refuse).
    related: ['RT-06', 'EX-03'],
    description: 'tools/call from a request that did not declare the tasks extension gets a CreateTaskResult (where the server said -32021, or ran a tool it runs as a task for declaring requests)',
    ...withHttpStatus(200, tracking((m, ctx) => {
      const req = ctx.request;
      if (req?.method !== 'tools/call' || declaresTasks(req)) {
        if (req?.method === 'tools/call' && isObj(m.result) && m.result.resultType === 'task' && typeof req.params.name === 'string') {
          if (!(ctx.state.taskTools instanceof Set)) ctx.state.taskTools = new Set<string>();
          (ctx.state.taskTools as Set<string>).add(req.params.name);
        }
        return undefined;
      }
      const needed = isObj(m.error) && m.error.code === -32021 && isObj(m.error.data) && isObj(m.error.data.requiredCapabilities) ? m.error.data.requiredCapabilities.extensions : undefined;
      const asTask = ctx.state.taskTools instanceof Set && ctx.state.taskTools.has(req.params.name) && isObj(m.result) && m.result.resultType === 'complete';
      if (!(isObj(needed) && TASKS_EXTENSION in needed) && !asTask) return undefined;
      const at = now();
      const meta = isObj(m.result) && isObj(m.result._meta) ? { _meta: m.result._meta } : {};
      delete m.error;
      m.result = { resultType: 'task', taskId: randomUUID(), status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: 600000, pollIntervalMs: 1000, ...meta };
      return [m];
    })),
  }),
  mutation({
    ...modern,
    id: 'tasks.get-result-type-task',
    requirements: ['RT-07'],
    related: ['TB-05', 'TB-08'],
    description: 'the results of tasks/get, tasks/update and tasks/cancel say resultType "task" instead of "complete"',
    ...onResult(['tasks/get', 'tasks/update', 'tasks/cancel'], (r) => {
      if (r.resultType !== 'complete') return false;
      r.resultType = 'task';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.create-result-type-complete',
    requirements: ['TB-05'],
    description: 'CreateTaskResults (tools/call answered with a task) say resultType "complete" instead of "task"',
    ...onResult(['tools/call'], (r) => {
      if (r.resultType !== 'task') return false;
      r.resultType = 'complete';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.terminal-status-changes',
    requirements: ['TB-16'],
    description: 'tasks/get of a task already seen terminal reports another status: completed becomes failed (with an error), failed or cancelled becomes working',
    ...tracking((m, ctx, seen) => {
      const r = resultTo(m, ctx, ['tasks/get']);
      if (!isTask(r) || !seen.get(r.taskId)?.terminal || !TERMINAL.has(r.status)) return undefined;
      if (r.status === 'completed') {
        delete r.result;
        r.status = 'failed';
        r.error = { code: -32603, message: 'The task failed after it had completed' };
      } else {
        delete r.error;
        delete r.statusMessage;
        r.status = 'working';
      }
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.is-error-as-failed',
    requirements: ['TB-14'],
    description: 'a task whose tool result has isError: true is reported failed (with a JSON-RPC error) instead of completed with that result, in tasks/get and notifications/tasks',
    ...tracking((m, ctx) => {
      const t = resultTo(m, ctx, ['tasks/get']) ?? (m.method === 'notifications/tasks' && isObj(m.params) ? m.params : undefined);
      if (!t || t.status !== 'completed' || !isObj(t.result) || t.result.isError !== true) return undefined;
      const text = (list(t.result, 'content') ?? []).find((c) => isObj(c) && typeof c.text === 'string') as Obj | undefined;
      delete t.result;
      t.status = 'failed';
      t.statusMessage = 'The tool reported an error';
      t.error = { code: -32603, message: typeof text?.text === 'string' ? text.text : 'The tool reported an error' };
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.completed-without-result',
    requirements: ['TB-08'],
    description: 'tasks/get of a completed task lacks its result',
    ...onResult(['tasks/get'], (r) => r.status === 'completed' && 'result' in r && delete r.result),
  }),
  mutation({
    ...modern,
    id: 'tasks.input-request-key-changes',
    requirements: ['TB-11'],
    description: 'the first two tasks/get polls of a working task say input_required, both asking under the key "question" but for two different requests (using a capability the requests declared)',
    ...tracking((m, ctx, seen) => {
      const r = resultTo(m, ctx, ['tasks/get']);
      if (!isTask(r) || r.status !== 'working') return undefined;
      const caps = { ...(seen.get(r.taskId)?.caps ?? {}), ...capsOf(ctx.request) };
      if (!(ctx.state.rounds instanceof Map)) ctx.state.rounds = new Map<string, number>();
      const rounds = ctx.state.rounds as Map<string, number>;
      const round = rounds.get(r.taskId) ?? 0;
      const ask = askWithin(caps, round);
      if (round > 1 || !ask) return undefined;
      rounds.set(r.taskId, round + 1);
      r.status = 'input_required';
      r.inputRequests = { question: ask };
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.cancel-ack-carries-task',
    requirements: ['TB-13'],
    description: 'the tasks/cancel ack carries the task id and status "cancelled" instead of being empty',
    ...onResult(['tasks/cancel'], (r, ctx) => {
      const taskId = taskIdOf(ctx.request);
      if (taskId === undefined || 'taskId' in r) return false;
      r.taskId = taskId;
      r.status = 'cancelled';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.update-rejects-unknown-keys',
    requirements: ['TB-12'],
    description: 'tasks/update of a known task gets -32602 "unknown inputResponses key" instead of the empty ack',
    ...onResult(['tasks/update'], (_r, ctx, m) => {
      const given = ctx.request?.params.inputResponses;
      delete m.result;
      m.error = { code: -32602, message: `Unknown inputResponses key(s): ${isObj(given) ? Object.keys(given).join(', ') || '(none)' : '(none)'}` };
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.undeclared-wrong-code',
    requirements: ['TB-15'],
    description: 'tasks/get, tasks/update and tasks/cancel from requests that did not declare the extension get -32601 instead of -32021',
    ...withHttpStatus(404, onError(['tasks/get', 'tasks/update', 'tasks/cancel'], (e, ctx) => {
      if (e.code !== -32021 || declaresTasks(ctx.request)) return false;
      e.code = -32601;
      e.message = 'Method not found';
      delete e.data;
      return true;
    })),
  }),
  mutation({
    ...modern,
    id: 'tasks.created-not-yet-visible',
    requirements: ['TB-06'],
    description: 'the first tasks/get of each task created through the proxy gets -32602 "unknown task" (the CreateTaskResult came before the task was stored)',
    ...tracking((m, ctx, seen) => {
      const taskId = taskIdOf(ctx.request);
      if (ctx.request?.method !== 'tasks/get' || !isObj(m.result) || taskId === undefined || !seen.has(taskId)) return undefined;
      if (!(ctx.state.polled instanceof Set)) ctx.state.polled = new Set<string>();
      const polled = ctx.state.polled as Set<string>;
      if (polled.has(taskId)) return undefined;
      polled.add(taskId);
      delete m.result;
      m.error = { code: -32602, message: `Unknown task: ${taskId}`, data: { taskId } };
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.log-on-task-stream',
    requirements: ['TB-18'],
    related: ['SB-11', 'LG-01'],
    description: 'each notifications/tasks on a listen stream is followed by a notifications/message about the task on the same stream',
    ...onNotification(['notifications/tasks'], (m) => {
      if (!isTask(m.params)) return undefined;
      const sid = isObj(m.params._meta) ? m.params._meta[SUBSCRIPTION_ID] : undefined;
      const params: Obj = { level: 'info', logger: 'tasks', data: `task ${m.params.taskId} is ${m.params.status}` };
      if (sid !== undefined) params._meta = { [SUBSCRIPTION_ID]: sid };
      return [m, { jsonrpc: '2.0', method: 'notifications/message', params }];
    }),
  }),
  mutation({
    ...modern,
    id: 'tasks.notification-without-result',
    requirements: ['TB-17'],
    description: 'notifications/tasks for a completed task lack its result (not the DetailedTask tasks/get returns)',
    ...onNotification(['notifications/tasks'], (m) => (isObj(m.params) && m.params.status === 'completed' && 'result' in m.params && delete m.params.result ? [m] : undefined)),
  }),

  // --- both flavours -------------------------------------------------------------------------------
  mutation({
    ...server,
    id: 'tasks.failed-without-status-message',
    requirements: ['TA-17', 'TB-14'],
    description: 'tasks/get of a failed task carries no statusMessage',
    ...onResult(['tasks/get'], (r) => r.status === 'failed' && 'statusMessage' in r && delete r.statusMessage),
  }),
  mutation({
    ...server,
    id: 'tasks.unknown-id-code',
    requirements: ['TA-14', 'TB-15'],
    description: 'task requests naming an unknown task (or cancelling a terminal one) get -32603 (internal error) instead of -32602',
    ...onError(TASK_METHODS, (e) => {
      if (e.code !== -32602) return false;
      e.code = -32603;
      e.message = 'Internal error';
      return true;
    }),
  }),
];
