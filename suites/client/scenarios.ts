// Client-role scenarios: mcpspec plays a scripted server (suites/client/scripted-server.ts) bent one way per
// scenario, starts the client under test against it, and returns what the client sent and how it
// ended. A client written for conformance may read MCPSPEC_SCENARIO (the id below); a plain client
// just does its own thing and is judged on it.

import fc from 'fast-check';
import { definitionArbitraries } from '../../arbitraries/schema-arbitraries.js';
import type { NearValid } from '../../arbitraries/near-valid.js';
import { isObj } from '../../protocol/jsonrpc.js';
import { META_SERVER_INFO } from '../../protocol/meta.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { ALL_VERSIONS, MODERN, type SpecVersion } from '../../protocol/versions.js';
import type { ClientExit, Received } from '../ports/scripted-server.js';
import { clientScenario, type ClientScenarioContext, type PlainRun } from '../kit/scenario.js';
import { discoverResult, inputRequestsFor, MODERN_VERSION, runScript, SCRIPTED_INFO, TOOL, type Request, type ScriptLog } from './scripted-server.js';

export interface ClientObs {
  exit: ClientExit;
  received: Received[];
  transport: 'stdio' | 'http';
  log: ScriptLog;
  plain?: PlainRun;
}

/** Runs the client under test against the script, and gathers what a client check reads. */
export async function observe(ctx: ClientScenarioContext, log: ScriptLog): Promise<ClientObs> {
  const exit = await ctx.server.runClient();
  return { exit, received: ctx.server.received(), transport: ctx.server.kind, log, plain: ctx.plain };
}

/** A modern-only 2026-07-28 server: server/discover, per-request _meta, initialize refused. */
export const modernServer = clientScenario<ClientObs>({
  id: 'client-modern',
  title: 'a modern-only 2026-07-28 scripted server (server/discover, per-request _meta)',
  versions: MODERN,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: true, legacy: false, timeoutMs: ctx.options.timeoutMs })),
});

/**
 * A legacy-only server: server/discover is an unknown method (-32601), initialize negotiates, the
 * initialize answer is held until the client has been quiet briefly (so a client that does not wait
 * for it shows), and the first request after notifications/initialized is answered only after the
 * server has pinged the client and asked what it declared (roots, sampling, elicitation).
 */
export const legacyServer = clientScenario<ClientObs>({
  id: 'client-legacy',
  title: 'a legacy-only scripted server (discover -32601, initialize, server-to-client requests)',
  versions: ALL_VERSIONS,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, holdInitializeMs: 40, serverRequests: true, timeoutMs: ctx.options.timeoutMs })),
});

/**
 * A legacy-only HTTP server shaped like the 1.x SDK's: anything but initialize outside a session
 * (server/discover and every modern request) gets 400 with -32000 and a null id. No modern error:
 * a client that tried 2026-07-28 first falls back (ED-04).
 */
export const sdk1LegacyServer = clientScenario<ClientObs>({
  id: 'client-legacy-400',
  title: 'a legacy-only HTTP server refusing modern requests as the 1.x SDK does (400, -32000, null id)',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, sdk1Refusals: true, timeoutMs: ctx.options.timeoutMs })),
});

/**
 * A 2026-07-28 stdio server whose process exits, unanswering, on the first request after
 * server/discover: the client should start it again (IO-06); the lost request may be retried.
 */
export const dyingServer = clientScenario<ClientObs>({
  id: 'client-server-dies',
  title: 'a scripted 2026-07-28 stdio server whose process exits on the first request after server/discover',
  versions: MODERN,
  transports: ['stdio'],
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: true, legacy: false, dieOn: 1, timeoutMs: ctx.options.timeoutMs })),
});

/** A protocol version no MCP revision has: no client can support it. */
export const UNSUPPORTED_VERSION = '2024-01-01';

/**
 * A legacy-only server that answers every initialize with a protocolVersion no client supports
 * (LC-04): the client should not go on with that session.
 */
export const unsupportedVersionServer = clientScenario<ClientObs>({
  id: 'client-unsupported-version',
  title: `a legacy-only scripted server that answers initialize with protocolVersion ${UNSUPPORTED_VERSION}, a version no client supports`,
  versions: ALL_VERSIONS,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, initializeVersion: UNSUPPORTED_VERSION, timeoutMs: ctx.options.timeoutMs })),
});

/** The newest legacy version the scripted server serves. */
export const NEWEST_LEGACY = '2025-11-25';

/**
 * A legacy-only server that answers every initialize with the newest legacy version: a client that
 * offered an older one and goes on with it supports it, so it should have offered it (LC-02).
 */
export const newestVersionServer = clientScenario<ClientObs>({
  id: 'client-newest-version',
  title: `a legacy-only scripted server that answers every initialize with protocolVersion ${NEWEST_LEGACY}, whatever was offered`,
  versions: ALL_VERSIONS,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, initializeVersion: NEWEST_LEGACY, timeoutMs: ctx.options.timeoutMs })),
});

/** Every modern request refused with -32022, naming only legacy versions: a counter-offer. */
export const counterOffer = clientScenario<ClientObs>({
  id: 'client-counteroffer',
  title: 'a scripted server that answers modern requests with -32022 and a list of other versions',
  versions: MODERN,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, counterOffer: true, timeoutMs: ctx.options.timeoutMs })),
});

/** One input_required answer the script gave. */
export interface Round {
  /** The Received seq and JSON-RPC id of the request it answered. */
  seq: number;
  id: unknown;
  method: string;
  target: string;
  requestState: string;
  inputKeys: string[];
  /** 1-based round within its chain. */
  round: number;
}

export interface MrtrObs extends ClientObs {
  rounds: Round[];
}

export const MRTR_METHODS = ['tools/call', 'prompts/get', 'resources/read'];

/** The name or uri a request targets (what identifies its chain of rounds). */
export function targetOf(params: unknown): string {
  if (!isObj(params)) return '';
  return typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : '';
}

/** Opaque state whose bytes a careless client would change: a decomposed é, +/=, a quote, trailing space. */
function stateFor(method: string, round: number): string {
  return `mcpspec:${method}:${round}:e\u0301+/=="q" \u2028 `;
}

/**
 * tools/call, prompts/get and resources/read each take three rounds: input_required with the input
 * requests the client declared (and requestState), then input_required with requestState only,
 * then the result. A retry whose requestState is not the one issued starts the chain again.
 */
export const inputRequired = clientScenario<MrtrObs>({
  id: 'client-input-required',
  title: 'a scripted 2026-07-28 server answering tools/call, prompts/get and resources/read with input_required, twice',
  versions: MODERN,
  async run(ctx) {
    const rounds: Round[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req: Request, mctx) {
        if (!MRTR_METHODS.includes(req.method)) return undefined;
        const target = targetOf(req.params);
        const prev = [...rounds].reverse().find((r) => r.method === req.method && r.target === target && r.requestState === req.params.requestState);
        const round = prev ? prev.round + 1 : 1;
        if (round > 2) return undefined; // the plain result
        const inputRequests = round === 1 ? inputRequestsFor(mctx.capabilities) : {};
        const requestState = stateFor(req.method, round);
        rounds.push({ seq: mctx.received.seq, id: req.id, method: req.method, target, requestState, inputKeys: Object.keys(inputRequests), round });
        const result: Record<string, unknown> = { resultType: 'input_required', requestState, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
        if (Object.keys(inputRequests).length) result.inputRequests = inputRequests;
        return { jsonrpc: '2.0', id: req.id, result };
      },
    });
    return { ...(await observe(ctx, log)), rounds };
  },
});

export const UNKNOWN_RESULT_TYPE = 'x-mcpspec-unknown';
export const UNKNOWN_STATE = 'mcpspec-unknown-result-type-state';

export interface ResultTypeObs extends ClientObs {
  /** The Received seq of server/discover requests answered without resultType. */
  bareDiscover: number[];
  /** Requests answered with an unknown resultType. */
  unknown: { seq: number; method: string }[];
}

/**
 * server/discover answered without resultType (an earlier-version answer: treat as complete), and
 * tools/call, prompts/get and resources/read answered with an unknown resultType that otherwise
 * looks like input_required (a client must treat it as invalid, not retry with its state).
 */
export const resultTypes = clientScenario<ResultTypeObs>({
  id: 'client-result-type',
  title: 'a scripted 2026-07-28 server sending a result without resultType and one with an unknown resultType',
  versions: MODERN,
  async run(ctx) {
    const bareDiscover: number[] = [];
    const unknown: { seq: number; method: string }[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method === 'server/discover') {
          bareDiscover.push(mctx.received.seq);
          return { jsonrpc: '2.0', id: req.id, result: { supportedVersions: [MODERN_VERSION], capabilities: { tools: {}, prompts: {}, resources: {} }, ttlMs: 0, cacheScope: 'public', _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
        }
        if (!MRTR_METHODS.includes(req.method)) return undefined;
        unknown.push({ seq: mctx.received.seq, method: req.method });
        return { jsonrpc: '2.0', id: req.id, result: { resultType: UNKNOWN_RESULT_TYPE, requestState: UNKNOWN_STATE, inputRequests: {}, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
      },
    });
    return { ...(await observe(ctx, log)), bareDiscover, unknown };
  },
});

export interface NearValidObs extends ClientObs {
  /** What was served: method, the violation, and the Received seq it answered. */
  served: { seq: number; method: string; label: NearValid['label'] }[];
}

const LIST_RESULTS: Record<string, string> = { 'tools/list': 'ListToolsResult', 'prompts/list': 'ListPromptsResult', 'resources/list': 'ListResourcesResult' };

/** List results that break exactly one schema constraint (generated from the schema of the era asked). */
export const nearValidAnswers = clientScenario<NearValidObs>({
  id: 'client-near-valid',
  title: 'a scripted server answering tools/list, prompts/list and resources/list with near-valid results',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const served: NearValidObs['served'] = [];
    let n = 0;
    const log = runScript(ctx.server, {
      modern: true,
      legacy: true,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        const def = LIST_RESULTS[req.method];
        if (!def) return undefined;
        const version = mctx.era === 'modern' ? MODERN_VERSION : '2025-11-25';
        const arb = definitionArbitraries(loadSchema(version), def, { specVersion: version, maxDepth: 2 }).nearValid;
        const [nv] = fc.sample(arb, { seed: ctx.options.seed + n++, numRuns: 1 });
        served.push({ seq: mctx.received.seq, method: req.method, label: nv.label });
        return { jsonrpc: '2.0', id: req.id, result: nv.value };
      },
    });
    return { ...(await observe(ctx, log)), served };
  },
});

/** The plain dual-era server again, every answer an SSE stream (priming event, comment line, then the message). */
export const sseAnswers = clientScenario<ClientObs>({
  id: 'client-sse',
  title: 'the plain scripted server answering every request as an SSE stream with a comment line',
  versions: ALL_VERSIONS,
  transports: ['http'],
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: true, legacy: true, sse: true, timeoutMs: ctx.options.timeoutMs })),
});

/** The `retry` the polling server names (long enough that an early reconnection shows). */
export const POLL_RETRY_MS = 400;
/** How many answers after initialize come by polling. */
export const POLL_COUNT = 2;

/**
 * A 2025-11-25 server that polls (HL-04, SEP-1699): the first answers after initialize come on SSE
 * streams that name `retry` and an event id and then close; each answer waits for the client's GET
 * with that Last-Event-ID.
 */
export const pollingServer = clientScenario<ClientObs>({
  id: 'client-sse-polling',
  title: 'a 2025-11-25 scripted server that closes its first answers\' SSE streams early (retry, event id), to be resumed with GET and Last-Event-ID',
  versions: ['2025-11-25'],
  transports: ['http'],
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: false, legacy: true, poll: { retryMs: POLL_RETRY_MS, count: POLL_COUNT }, timeoutMs: ctx.options.timeoutMs })),
});

/** How many requests the broken-stream server loses. */
export const BROKEN_COUNT = 1;

/**
 * A 2026-07-28 server whose first answer stream (after server/discover) closes before the answer,
 * with no event id: the request is lost, and the client must send it again with a new id (HM-05).
 */
export const brokenStreamServer = clientScenario<ClientObs>({
  id: 'client-broken-stream',
  title: 'a scripted 2026-07-28 server that closes the answer stream of the first request after server/discover before answering it',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: true, legacy: false, breakStreams: BROKEN_COUNT, timeoutMs: ctx.options.timeoutMs })),
});

/** The plain dual-era server again, over stdio, logging to its stderr as many servers do. */
export const stderrLogs = clientScenario<ClientObs>({
  id: 'client-stderr',
  title: 'the plain scripted server, over stdio, writing log lines to its stderr',
  versions: ALL_VERSIONS,
  transports: ['stdio'],
  serverStderr: true,
  run: (ctx) => observe(ctx, runScript(ctx.server, { modern: true, legacy: true, timeoutMs: ctx.options.timeoutMs })),
});

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const TASK_POLL_MS = 100;

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
 * it creates a task (pollIntervalMs 100). tasks/get answers working, then input_required with the input
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

export const LEGACY_TASK_POLL_MS = 100;

export interface LegacyTaskObs extends ClientObs {
  /** Tasks created for task-augmented tools/call requests, with each tasks/get answer. */
  tasks: { taskId: string; seq: number; pollInterval: number; polls: { seq: number; at: number; status: string }[] }[];
}

/**
 * 2025-11-25 tasks (the core flavour): the legacy server declares tasks.requests.tools.call and its
 * tool taskSupport "optional"; a task-augmented tools/call (params.task) creates a task (pollInterval
 * 100 ms) that tasks/get shows working, then completed; tasks/result returns the tool's result.
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

export const LONG_TTL_MS = 3_600_000;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export interface CachingObs extends ClientObs {
  /** tools/list requests: Received seq and arrival time. */
  lists: { seq: number; at: number }[];
  /** When notifications/tools/list_changed went out on a listen stream (after the first tools/list was answered). */
  invalidatedAt?: number;
  /** The client opened a subscriptions/listen stream for toolsListChanged. */
  subscribed: boolean;
}

/**
 * Caching (SEP-2549): tools/list is fresh for an hour (ttlMs 3600000). A client that opens a
 * subscriptions/listen stream for toolsListChanged is told, once its first tools/list has been
 * answered, that the list changed: it may refetch then (CA-10); refetching a fresh list without
 * such a notification is what CA-04 advises against.
 */
export const cachingServer = clientScenario<CachingObs>({
  id: 'client-caching',
  title: 'a scripted 2026-07-28 server whose tools/list stays fresh for an hour, with list_changed on a listen stream',
  versions: MODERN,
  async run(ctx) {
    const lists: CachingObs['lists'] = [];
    let invalidatedAt: number | undefined;
    let subscribed = false;
    let firstListed: () => void = () => undefined;
    const listed = new Promise<void>((r) => (firstListed = r));
    const ended = new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true }));
    const meta = { _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method === 'server/discover') {
          return { jsonrpc: '2.0', id: req.id, result: discoverResult([MODERN_VERSION], { tools: { listChanged: true }, prompts: {}, resources: {} }, LONG_TTL_MS) };
        }
        if (req.method === 'tools/list') {
          lists.push({ seq: mctx.received.seq, at: mctx.received.at ?? Date.now() });
          // Resolved after this answer is on its way (a macrotask after the write).
          setTimeout(firstListed, 0);
          return { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', tools: [TOOL], ttlMs: LONG_TTL_MS, cacheScope: 'public', ...meta } };
        }
        if (req.method !== 'subscriptions/listen') return undefined;
        const wanted = isObj(req.params.notifications) && req.params.notifications.toolsListChanged === true;
        subscribed ||= wanted;
        const sub = { [SUBSCRIPTION_ID]: req.id };
        async function* stream() {
          yield { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: sub, notifications: wanted ? { toolsListChanged: true } : {} } };
          if (!wanted) return;
          await Promise.race([listed, ended]);
          // Told only once the client has been quiet a moment after its first list: a client that
          // refetches on its own does so before it, one that waits for the notification after it.
          await ctx.server.quiet(150, ctx.options.timeoutMs);
          if (ctx.signal.aborted || invalidatedAt !== undefined) return;
          invalidatedAt = Date.now();
          yield { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: sub } };
          await ended;
        }
        return { scripted: true, sse: true, stream: stream(), response: undefined };
      },
    });
    const observed = await observe(ctx, log);
    return { ...observed, lists, invalidatedAt, subscribed };
  },
});

/** The scenarios whose traffic the client oracles judge when no scenario check is selected. */
export const ORACLE_TRAFFIC = [modernServer, legacyServer, inputRequired];
