// Client-role task scenarios: mcpspec's scripted server (suites/client/scripted-server.ts) with
// tasks, one per flavour: the SEP-2663 extension (2026-07-28) and 2025-11-25 core tasks. Judged by
// client-checks.ts beside it.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_SERVER_INFO } from '../../protocol/meta.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { discoverResult, inputRequestsFor, MODERN_VERSION, runScript, SCRIPTED_INFO, TOOL } from '../client/scripted-server.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
// Long beside mcpspec's own event-loop jitter in stamping arrivals, so a fixed tolerance
// (client-checks.ts) absorbs it; a client that ignores the interval still polls far sooner.
export const TASK_POLL_MS = 500;

/** One task the script created, and what each tasks/get of it was answered. */
export interface TaskLog {
  taskId: string;
  /** Received seq of the tools/call that created it. */
  seq: number;
  pollIntervalMs: number;
  inputKeys: string[];
  /** tasks/get answers, in order: the Received seq, when it arrived, the status answered. */
  polls: { seq: number; at: number; status: string }[];
}

export interface TasksObs extends ClientObs {
  tasks: TaskLog[];
}

const declaresTasks = (caps: Record<string, unknown>) => isObj(caps.extensions) && TASKS_EXTENSION in caps.extensions;

/**
 * The SEP-2663 tasks extension: server/discover advertises it; tools/call from a request that declares
 * it creates a task (pollIntervalMs 500). tasks/get answers working, then input_required with the input
 * requests the client declared (until tasks/update answers them), then completed with the result.
 */
export const tasksServer = clientScenario<TasksObs>({
  id: 'client-tasks',
  title: 'a scripted 2026-07-28 server with the tasks extension: tools/call creates a task to poll, which asks for input once',
  versions: MODERN,
  async run(ctx) {
    const tasks: TaskLog[] = [];
    const state = new Map<string, { log: TaskLog; answered: boolean; inputRequests: Record<string, unknown> }>();
    const created = new Date().toISOString();
    const task = (t: TaskLog, status: string, extra: Record<string, unknown> = {}) => ({ taskId: t.taskId, status, createdAt: created, lastUpdatedAt: new Date().toISOString(), ttlMs: 60_000, pollIntervalMs: t.pollIntervalMs, ...extra });
    const meta = { _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method === 'server/discover') {
          return { jsonrpc: '2.0', id: req.id, result: discoverResult([MODERN_VERSION], { tools: {}, prompts: {}, resources: {}, extensions: { [TASKS_EXTENSION]: {} } }) };
        }
        if (req.method === 'tools/call' && declaresTasks(mctx.capabilities)) {
          const inputRequests = inputRequestsFor(mctx.capabilities);
          const t: TaskLog = { taskId: `task-${tasks.length + 1}-7c1e4b9a2f`, seq: mctx.received.seq, pollIntervalMs: TASK_POLL_MS, inputKeys: Object.keys(inputRequests), polls: [] };
          tasks.push(t);
          state.set(t.taskId, { log: t, answered: t.inputKeys.length === 0, inputRequests });
          return { jsonrpc: '2.0', id: req.id, result: { resultType: 'task', ...task(t, 'working'), ...meta } };
        }
        if (!req.method.startsWith('tasks/')) return undefined;
        const s = state.get(String(req.params.taskId));
        if (!s) return { scripted: true, response: { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Unknown taskId' } }, status: ctx.server.kind === 'http' ? 400 : 200 };
        if (req.method === 'tasks/update') {
          s.answered = true;
          return { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', ...meta } };
        }
        if (req.method === 'tasks/cancel') return { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', ...meta } };
        if (req.method !== 'tasks/get') return undefined;
        const n = s.log.polls.length;
        const status = n === 0 ? 'working' : !s.answered ? 'input_required' : 'completed';
        s.log.polls.push({ seq: mctx.received.seq, at: mctx.received.at ?? Date.now(), status });
        const extra = status === 'input_required' ? { inputRequests: s.inputRequests } : status === 'completed' ? { result: { content: [{ type: 'text', text: 'task done' }], isError: false } } : {};
        return { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', ...task(s.log, status, extra), ...meta } };
      },
    });
    return { ...(await observe(ctx, log)), tasks };
  },
});

export const LEGACY_TASK_POLL_MS = 500;

export interface LegacyTaskObs extends ClientObs {
  /** Tasks created for task-augmented tools/call requests, with each tasks/get answer. */
  tasks: { taskId: string; seq: number; pollInterval: number; polls: { seq: number; at: number; status: string }[] }[];
}

/**
 * 2025-11-25 tasks (the core flavour): the legacy server declares tasks.requests.tools.call and its
 * tool taskSupport "optional"; a task-augmented tools/call (params.task) creates a task (pollInterval
 * 500 ms) that tasks/get shows working, then completed; tasks/result returns the tool's result.
 */
export const legacyTasksServer = clientScenario<LegacyTaskObs>({
  id: 'client-tasks-legacy',
  title: 'a scripted 2025-11-25 server with core tasks: a task-augmented tools/call creates a task to poll and fetch',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const tasks: LegacyTaskObs['tasks'] = [];
    const created = new Date().toISOString();
    const taskOf = (t: LegacyTaskObs['tasks'][number], status: string) => ({ taskId: t.taskId, status, createdAt: created, lastUpdatedAt: new Date().toISOString(), ttl: 60_000, pollInterval: t.pollInterval });
    const result = { content: [{ type: 'text', text: 'task done' }], isError: false };
    const log = runScript(ctx.server, {
      modern: false,
      legacy: true,
      timeoutMs: ctx.options.timeoutMs,
      legacyCapabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false }, tasks: { requests: { tools: { call: {} } } } },
      override(req, mctx) {
        if (req.method === 'tools/list') return { jsonrpc: '2.0', id: req.id, result: { tools: [{ ...TOOL, execution: { taskSupport: 'optional' } }] } };
        if (req.method === 'tools/call' && isObj(req.params.task)) {
          const t = { taskId: `legacy-task-${tasks.length + 1}-4d2e8f`, seq: mctx.received.seq, pollInterval: LEGACY_TASK_POLL_MS, polls: [] as LegacyTaskObs['tasks'][number]['polls'] };
          tasks.push(t);
          return { jsonrpc: '2.0', id: req.id, result: { task: taskOf(t, 'working') } };
        }
        if (!req.method.startsWith('tasks/')) return undefined;
        const t = tasks.find((x) => x.taskId === req.params.taskId);
        if (!t) return { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Unknown taskId' } };
        if (req.method === 'tasks/get') {
          const status = t.polls.length === 0 ? 'working' : 'completed';
          t.polls.push({ seq: mctx.received.seq, at: mctx.received.at ?? Date.now(), status });
          return { jsonrpc: '2.0', id: req.id, result: taskOf(t, status) };
        }
        if (req.method === 'tasks/result') {
          // Blocks until terminal: the task completes at its second poll, or here at once.
          if (!t.polls.some((p) => p.status === 'completed')) t.polls.push({ seq: mctx.received.seq, at: mctx.received.at ?? Date.now(), status: 'completed' });
          return { jsonrpc: '2.0', id: req.id, result: { ...result, _meta: { 'io.modelcontextprotocol/related-task': { taskId: t.taskId } } } };
        }
        if (req.method === 'tasks/cancel') return { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Task is terminal' } };
        return undefined;
      },
    });
    return { ...(await observe(ctx, log)), tasks };
  },
});
