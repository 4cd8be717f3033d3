// Task scenarios, one per flavour. Legacy (2025-11-25 core tasks, TK25): task-augmented tools/call on
// tools whose execution.taskSupport allows it, polling tasks/get at the server's pollInterval,
// tasks/result (which blocks until the task ends), tasks/list, tasks/cancel, unknown ids, and
// taskSupport enforcement. Modern (2026-07-28 + io.modelcontextprotocol/tasks, SEP-2663): calls that
// declare the extension per request, DetailedTask polls, tasks/update and tasks/cancel acks, TB-03 and
// TB-14, the task methods without the extension declared, the removed tasks/result and tasks/list,
// the removed params.task on a call answered without a task, and a partial tasks/update (TB-12).
// Polling is bounded by the tool timeout; no fixed sleeps: waits are what the server asks for.

import fc from 'fast-check';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { errorCode, isObj, listAll, outcome, resultOf } from '../kit/exchange.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { mayCall, schemaProblem, type Tool } from '../tools/scenario.js';
import { gentleSchema } from '../tools/gentle-arguments.js';
import { inputResponse } from '../../arbitraries/input-responses.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const UNKNOWN_TASK_ID = 'mcpspec-no-such-task-5b1e9c';

/** One task followed from creation: its create exchange, every poll, and how polling ended. */
export interface TaskRun {
  tool: string;
  args: unknown;
  create: Exchange;
  taskId?: string;
  polls: Exchange[];
  /** The first terminal (or input_required) status polling saw. */
  settled?: string;
  /** Polling stopped at the bound (the tool timeout) before the task ended. */
  boundReachedMs?: number;
}

export interface LegacyTasksObs {
  declared: { list: boolean; cancel: boolean; toolsCall: boolean };
  tools: Tool[];
  notCalled: { tool: string; why: string }[];
  main?: TaskRun & { result?: Exchange; afterResult?: Exchange };
  cancelled?: { run: TaskRun; cancel?: Exchange; after?: Exchange };
  extra?: TaskRun;
  cancelTerminal?: Exchange;
  unknown: { get: Exchange; result: Exchange; cancel?: Exchange };
  list?: { ids: string[]; pages: Exchange[]; truncated: boolean; loop: boolean; failed?: Exchange };
  badCursor?: Exchange;
  requiredPlain?: { tool: string; ex: Exchange };
  forbiddenTask?: { tool: string; ex: Exchange };
}

export interface ModernTasksObs {
  tools: Tool[];
  notCalled: { tool: string; why: string }[];
  /** Each callable tool called once with the extension declared (valid arguments). */
  probes: { tool: string; ex: Exchange }[];
  main?: TaskRun;
  /** Task tools called again without the extension (TB-03). */
  undeclared: { tool: string; ex: Exchange }[];
  /** The second task: tasks/update, a tasks/get, tasks/cancel, a tasks/get (both gets also in run.polls). */
  cancelled?: { run: TaskRun; cancel?: Exchange; after?: Exchange };
  update?: Exchange;
  /** tasks/get right after tasks/update (before tasks/cancel): had the task ended by then? */
  afterUpdate?: Exchange;
  /** A call whose plain answer is an isError result, then made again as a task (TB-14). */
  isError?: { tool: string; plain: Exchange; run?: TaskRun; direct?: Exchange };
  unknown: { get: Exchange; update: Exchange; cancel: Exchange };
  /** tasks/get of a real task by a request that does not declare the extension (TB-15). */
  getUndeclared?: Exchange;
  /** tasks/update and tasks/cancel of the same task by requests that do not declare the extension (TB-15). */
  updateUndeclared?: Exchange;
  cancelUndeclared?: Exchange;
  /** The 2025-11-25 methods the extension removed, asked for declaring it: tasks/result (of an unknown id) and tasks/list. */
  removed: { result: Exchange; list: Exchange };
  /** A call that was answered without a task, made again with the 2025-11-25 `params.task` (which the server must ignore). */
  legacyParam?: { tool: string; plain: Exchange; withTask: Exchange };
  /** A task waiting for two or more inputs (asked for as a client that declares elicitation), answered one key first, then the rest (TB-12). */
  partial?: { run: TaskRun; waiting: Exchange; keys: string[]; answered: string; update: Exchange; after: Exchange; rest?: Exchange; restAfter?: Exchange };
  /** What the tasks asked for that way did, when none waited for two inputs or more. */
  partialNone?: string;
}

// ---------------------------------------------------------------------------------------------
// helpers

export function taskSupport(tool: Tool): string {
  const ex = tool.execution;
  return isObj(ex) && typeof ex.taskSupport === 'string' ? ex.taskSupport : 'forbidden';
}

/** One valid argument object for a tool, or undefined when none can be generated. */
function validArgs(tool: Tool, seed: number): unknown {
  if (schemaProblem(tool.inputSchema)) return undefined;
  try {
    const [v] = fc.sample(schemaArbitraries(gentleSchema(tool.inputSchema as Record<string, unknown>), { maxDepth: 2 }).valid, { seed, numRuns: 1 });
    return v;
  } catch {
    return undefined;
  }
}

/** A near-valid (schema-breaking) object argument, or undefined. */
function nearValidArgs(tool: Tool, seed: number): unknown {
  if (schemaProblem(tool.inputSchema)) return undefined;
  try {
    const near = fc.sample(schemaArbitraries(tool.inputSchema as Record<string, unknown>, { maxDepth: 2 }).nearValid, { seed, numRuns: 20 });
    return near.find((n) => isObj(n.value))?.value;
  } catch {
    return undefined;
  }
}

/** Wait `ms`, or less if the run ends. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The task object of a legacy answer: CreateTaskResult nests it, the others are flat. */
export function legacyTaskOf(r: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!r) return undefined;
  if (isObj(r.task)) return r.task;
  return typeof r.taskId === 'string' ? r : undefined;
}

/** How long polling may go on: the tool timeout (a task is a long tool call). */
export function pollBoundMs(ctx: ScenarioContext): number {
  return Math.max(ctx.options.toolTimeoutMs ?? 0, ctx.options.timeoutMs);
}

/**
 * Poll tasks/get until the task ends (or needs input), waiting what the server suggests between polls
 * (pollInterval / pollIntervalMs; without one, 100 ms doubling up to 2 s), never past the bound.
 */
async function poll(ctx: ScenarioContext, run: TaskRun, get: () => Promise<Exchange>, intervalOf: (r: Record<string, unknown>) => unknown, startedAt: number, firstInterval: unknown): Promise<void> {
  const bound = pollBoundMs(ctx);
  let backoff = 100;
  let interval = firstInterval;
  let atBound = false;
  for (;;) {
    const suggested = typeof interval === 'number' && Number.isFinite(interval) && interval >= 0 ? interval : undefined;
    const wait = suggested ?? backoff;
    if (suggested === undefined) backoff = Math.min(backoff * 2, 2000);
    const elapsed = Date.now() - startedAt;
    // The last poll is made at the bound itself, so a task gets the whole bound to end.
    const left = bound - elapsed;
    if (left <= 0 || (wait > left && atBound)) {
      run.boundReachedMs = bound;
      return;
    }
    if (wait > left) atBound = true;
    await pause(Math.min(wait, left), ctx.signal);
    if (ctx.signal.aborted) return;
    const ex = await get();
    run.polls.push(ex);
    const r = resultOf(ex);
    const status = r?.status;
    if (!r || typeof status !== 'string') return;
    if (TERMINAL.has(status) || status === 'input_required') {
      run.settled = status;
      return;
    }
    interval = intervalOf(r);
  }
}

// ---------------------------------------------------------------------------------------------
// Legacy flavour

async function legacyRun(ctx: ScenarioContext, tool: Tool, args: unknown, extra: Record<string, unknown> = {}): Promise<TaskRun> {
  const { session } = ctx;
  const create = await session.request('tools/call', { name: tool.name, arguments: args, task: { ttl: 600_000 }, ...extra }, { timeoutMs: ctx.options.toolTimeoutMs ?? ctx.options.timeoutMs });
  const task = legacyTaskOf(resultOf(create));
  const run: TaskRun = { tool: tool.name, args, create, polls: [] };
  if (!task || typeof task.taskId !== 'string') return run;
  run.taskId = task.taskId;
  if (typeof task.status === 'string' && TERMINAL.has(task.status)) run.settled = task.status;
  return run;
}

async function legacyPoll(ctx: ScenarioContext, run: TaskRun): Promise<void> {
  if (!run.taskId || run.settled) return;
  const task = legacyTaskOf(resultOf(run.create))!;
  await poll(ctx, run, () => ctx.session.request('tasks/get', { taskId: run.taskId }), (r) => r.pollInterval, run.create.startedAt, task.pollInterval);
}

export const legacyTasksScenario = scenario<LegacyTasksObs>({
  id: 'tasks-legacy',
  title: 'task-augmented tools/call, tasks/get polling, tasks/result, tasks/list, tasks/cancel (2025-11-25 tasks)',
  versions: ['2025-11-25'],
  // It waits as long as the server's tasks take (server-everything's: 4 s), the longest wait of many runs.
  startEarly: 'first',
  async run(ctx) {
    const { session, options } = ctx;
    const caps = isObj(session.capabilities.tasks) ? session.capabilities.tasks : {};
    const requests = isObj(caps.requests) && isObj(caps.requests.tools) ? caps.requests.tools : {};
    const declared = { list: isObj(caps.list), cancel: isObj(caps.cancel), toolsCall: isObj(requests.call) };
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    const tools = listed.items.filter((t): t is Tool => typeof t.name === 'string');
    const obs: LegacyTasksObs = { declared, tools, notCalled: [], unknown: {} as LegacyTasksObs['unknown'] };

    // The first tool mcpspec may call, by taskSupport, with its arguments. Tools are tried in order
    // and no further than the first that can be called (generating arguments for every listed tool
    // held the task calls back); the ones passed over say why in notCalled.
    const firstCallable = (support: (s: string) => boolean): { tool: Tool; args: unknown } | undefined => {
      for (const tool of tools.filter((t) => support(taskSupport(t)))) {
        const why = mayCall(tool, options);
        if (why) {
          obs.notCalled.push({ tool: tool.name, why });
          continue;
        }
        const args = validArgs(tool, options.seed);
        if (args === undefined) obs.notCalled.push({ tool: tool.name, why: 'no valid arguments could be generated for its inputSchema' });
        else return { tool, args };
      }
      return undefined;
    };
    const first = declared.toolsCall ? firstCallable((s) => s === 'optional' || s === 'required') : undefined;
    const required = firstCallable((s) => s === 'required');
    const forbidden = declared.toolsCall ? firstCallable((s) => s === 'forbidden') : undefined;

    const unknownId = { taskId: UNKNOWN_TASK_ID };
    const side: Promise<unknown>[] = [
      ctx.deliberate(session.request('tasks/get', unknownId)).then((ex) => void (obs.unknown.get = ex)),
      ctx.deliberate(session.request('tasks/result', unknownId)).then((ex) => void (obs.unknown.result = ex)),
    ];
    if (declared.cancel) side.push(ctx.deliberate(session.request('tasks/cancel', unknownId)).then((ex) => void (obs.unknown.cancel = ex)));
    if (required) {
      const { tool, args } = required;
      side.push(ctx.deliberate(session.request('tools/call', { name: tool.name, arguments: args })).then((ex) => void (obs.requiredPlain = { tool: tool.name, ex })));
    }
    if (forbidden) {
      const { tool, args } = forbidden;
      side.push(ctx.deliberate(session.request('tools/call', { name: tool.name, arguments: args, task: { ttl: 60_000 } })).then((ex) => void (obs.forbiddenTask = { tool: tool.name, ex })));
    }

    if (first) {
      // Three tasks at once: one followed to its end (with tasks/result waiting on it), one cancelled
      // at once, one more so tasks/list has something to paginate.
      const [mainRun, toCancel, extra] = await Promise.all([legacyRun(ctx, first.tool, first.args), declared.cancel ? legacyRun(ctx, first.tool, first.args) : undefined, legacyRun(ctx, first.tool, first.args)]);
      const main: NonNullable<LegacyTasksObs['main']> = mainRun;
      obs.main = main;
      obs.extra = extra;
      const work: Promise<unknown>[] = [legacyPoll(ctx, main), legacyPoll(ctx, extra)];
      if (main.taskId) {
        // tasks/result right away: it must block until the task ends (TA-10).
        work.push(
          session.request('tasks/result', { taskId: main.taskId }, { timeoutMs: pollBoundMs(ctx) }).then(async (ex) => {
            main.result = ex;
            if (ex.response) main.afterResult = await session.request('tasks/get', { taskId: main.taskId });
          }),
        );
      }
      if (toCancel?.taskId) {
        const c: NonNullable<LegacyTasksObs['cancelled']> = { run: toCancel };
        obs.cancelled = c;
        work.push(
          session.request('tasks/cancel', { taskId: toCancel.taskId }).then(async (ex) => {
            c.cancel = ex;
            c.after = await session.request('tasks/get', { taskId: toCancel.taskId });
          }),
        );
      }
      await Promise.all(work);
      // Once more after everything above was answered: a terminal status must not change (TA-06).
      // The polls, tasks/result and its get ran at once; only a report asked for after an end was seen shows a change.
      for (const run of [main, extra]) {
        if (run.taskId && run.settled && TERMINAL.has(run.settled)) run.polls.push(await session.request('tasks/get', { taskId: run.taskId }));
      }
      if (declared.cancel && main.taskId && main.settled && TERMINAL.has(main.settled)) {
        obs.cancelTerminal = await ctx.deliberate(session.request('tasks/cancel', { taskId: main.taskId }));
      }
    }
    if (declared.list) {
      const l = await listAll((cursor) => session.request('tasks/list', cursor === undefined ? {} : { cursor }), 'tasks');
      obs.list = { ids: l.items.map((t) => t.taskId).filter((id): id is string => typeof id === 'string'), pages: l.pages, truncated: l.truncated, loop: !!l.loop, failed: l.failed };
      obs.badCursor = await ctx.deliberate(session.request('tasks/list', { cursor: 'mcpspec-not-a-cursor' }));
    }
    await Promise.all(side);
    return obs;
  },
});

// ---------------------------------------------------------------------------------------------
// Modern flavour

/** `_meta` overrides that declare the tasks extension on this one request (TB-01). */
export function declaring(session: Session): { metaOverrides: Record<string, unknown> } {
  const base = session.defaultMeta()[META_CLIENT_CAPABILITIES];
  const caps = isObj(base) ? { ...base } : {};
  caps.extensions = { ...(isObj(caps.extensions) ? caps.extensions : {}), [TASKS_EXTENSION]: {} };
  return { metaOverrides: { [META_CLIENT_CAPABILITIES]: caps } };
}

const MAX_PROBED_TOOLS = 10;
/** Task tools asked again as a client that can be asked for input, looking for a task that waits for several. */
const MAX_ASKING_TOOLS = 3;

/** As `declaring`, with form elicitation declared too: a server may then ask for input during the task. */
export function declaringAskable(session: Session): { metaOverrides: Record<string, unknown> } {
  const { metaOverrides } = declaring(session);
  const caps = metaOverrides[META_CLIENT_CAPABILITIES] as Record<string, unknown>;
  return { metaOverrides: { [META_CLIENT_CAPABILITIES]: { ...caps, elicitation: { form: {} } } } };
}

const inputKeys = (ex: Exchange | undefined): string[] => {
  const r = resultOf(ex);
  return r && isObj(r.inputRequests) ? Object.keys(r.inputRequests) : [];
};

/**
 * TB-12: a few tools (those that asked for input, then the task tools) called again declaring elicitation; the first task that waits for two
 * inputs or more gets an answer to one of them (tasks/update), a tasks/get, then the rest and a tasks/get.
 * Other tasks still waiting are cancelled.
 */
async function partialUpdate(ctx: ScenarioContext, obs: ModernTasksObs, tasked: { tool: string; args: unknown }[], timeoutMs: number): Promise<void> {
  const { session } = ctx;
  const ext = declaring(session);
  const runs = await Promise.all(
    tasked.slice(0, MAX_ASKING_TOOLS).map(async (t) => {
      const create = await session.request('tools/call', { name: t.tool, arguments: t.args }, { ...declaringAskable(session), timeoutMs });
      return modernRun(ctx, t.tool, t.args, create);
    }),
  );
  const waiting = runs.filter((r) => r.settled === 'input_required');
  const chosen = waiting.find((r) => inputKeys(r.polls.at(-1)).length >= 2);
  for (const r of waiting.filter((w) => w !== chosen)) await session.request('tasks/cancel', { taskId: r.taskId }, ext);
  if (!chosen) {
    obs.partialNone = runs.map((r) => `${r.tool}: ${!r.taskId ? `no task (${outcome(r.create)})` : r.settled === 'input_required' ? `input_required with ${inputKeys(r.polls.at(-1)).length} request(s)` : (r.settled ?? 'not ended within the poll bound')}`).join('; ');
    return;
  }
  const waitingEx = chosen.polls.at(-1)!;
  const requests = resultOf(waitingEx)!.inputRequests as Record<string, unknown>;
  const keys = Object.keys(requests);
  const respond = (ks: string[]) => Object.fromEntries(ks.map((k, i) => [k, inputResponse(requests[k], ctx.version, ctx.options.seed + i)]).filter(([, v]) => v !== undefined));
  const [first, ...others] = keys;
  const update = await session.request('tasks/update', { taskId: chosen.taskId, inputResponses: respond([first]) }, ext);
  const after = await session.request('tasks/get', { taskId: chosen.taskId }, ext);
  const p: NonNullable<ModernTasksObs['partial']> = { run: chosen, waiting: waitingEx, keys, answered: first, update, after };
  obs.partial = p;
  if (resultOf(after)?.status === 'input_required') {
    p.rest = await session.request('tasks/update', { taskId: chosen.taskId, inputResponses: respond(others) }, ext);
    p.restAfter = await session.request('tasks/get', { taskId: chosen.taskId }, ext);
  }
}

async function modernRun(ctx: ScenarioContext, tool: string, args: unknown, create?: Exchange): Promise<TaskRun> {
  const { session } = ctx;
  const ext = declaring(session);
  const ex = create ?? (await session.request('tools/call', { name: tool, arguments: args }, { ...ext, timeoutMs: ctx.options.toolTimeoutMs ?? ctx.options.timeoutMs }));
  const r = resultOf(ex);
  const run: TaskRun = { tool, args, create: ex, polls: [] };
  if (!r || r.resultType !== 'task' || typeof r.taskId !== 'string') return run;
  run.taskId = r.taskId;
  await poll(ctx, run, () => session.request('tasks/get', { taskId: run.taskId }, ext), (g) => g.pollIntervalMs, ex.startedAt, r.pollIntervalMs);
  // Once more after the end: a terminal status must not change (TB-16); a task waiting for input is read
  // again before anything answers it, so each inputRequests key is seen on two polls (TB-11).
  if (run.settled && (TERMINAL.has(run.settled) || run.settled === 'input_required')) run.polls.push(await session.request('tasks/get', { taskId: run.taskId }, ext));
  return run;
}

export const modernTasksScenario = scenario<ModernTasksObs>({
  id: 'tasks-modern',
  title: 'tools/call declaring io.modelcontextprotocol/tasks, tasks/get polling, tasks/update and tasks/cancel acks (2026-07-28 tasks extension)',
  versions: ['2026-07-28'],
  // It waits as long as the server's tasks take (server-everything's: 4 s), the longest wait of many runs.
  startEarly: 'first',
  async run(ctx) {
    const { session, options } = ctx;
    const ext = declaring(session);
    const listed = await listAll((cursor) => session.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools');
    const tools = listed.items.filter((t): t is Tool => typeof t.name === 'string');
    const obs: ModernTasksObs = { tools, notCalled: [], probes: [], undeclared: [], unknown: {} as ModernTasksObs['unknown'], removed: {} as ModernTasksObs['removed'] };
    const unknownId = { taskId: UNKNOWN_TASK_ID };
    const side = Promise.all([
      ctx.deliberate(session.request('tasks/result', unknownId, ext)).then((ex) => void (obs.removed.result = ex)),
      ctx.deliberate(session.request('tasks/list', {}, ext)).then((ex) => void (obs.removed.list = ex)),
      ctx.deliberate(session.request('tasks/get', unknownId, ext)).then((ex) => void (obs.unknown.get = ex)),
      ctx.deliberate(session.request('tasks/update', { ...unknownId, inputResponses: {} }, ext)).then((ex) => void (obs.unknown.update = ex)),
      ctx.deliberate(session.request('tasks/cancel', unknownId, ext)).then((ex) => void (obs.unknown.cancel = ex)),
    ]);

    const candidates: { tool: Tool; args: unknown }[] = [];
    for (const tool of tools) {
      if (candidates.length >= MAX_PROBED_TOOLS) break; // arguments for tools never probed would only cost time
      const why = mayCall(tool, options);
      if (why) {
        obs.notCalled.push({ tool: tool.name, why });
        continue;
      }
      const args = validArgs(tool, options.seed);
      if (args === undefined) obs.notCalled.push({ tool: tool.name, why: 'no valid arguments could be generated for its inputSchema' });
      else candidates.push({ tool, args });
    }
    // Which tools answer with a task is the server's choice per request (TB-02): ask each once.
    const timeoutMs = options.toolTimeoutMs ?? options.timeoutMs;
    obs.probes = await Promise.all(candidates.map(async ({ tool, args }) => ({ tool: tool.name, ex: await session.request('tools/call', { name: tool.name, arguments: args }, { ...ext, timeoutMs }) })));
    const tasked = obs.probes.filter((p) => resultOf(p.ex)?.resultType === 'task');
    const argsOf = (name: string) => candidates.find((c) => c.tool.name === name)!.args;
    const work: Promise<unknown>[] = [];
    if (tasked[0]) {
      const t = tasked[0];
      work.push(modernRun(ctx, t.tool, argsOf(t.tool), t.ex).then((run) => void (obs.main = run)));
      // A second task: tasks/update (nothing was asked: unknown keys are ignored) then tasks/cancel.
      work.push(
        (async () => {
          const create = await session.request('tools/call', { name: t.tool, arguments: argsOf(t.tool) }, { ...ext, timeoutMs });
          const r = resultOf(create);
          const run: TaskRun = { tool: t.tool, args: argsOf(t.tool), create, polls: [] };
          if (r?.resultType !== 'task' || typeof r.taskId !== 'string') return;
          run.taskId = r.taskId;
          obs.getUndeclared = await ctx.deliberate(session.request('tasks/get', { taskId: r.taskId }));
          obs.updateUndeclared = await ctx.deliberate(session.request('tasks/update', { taskId: r.taskId, inputResponses: {} }));
          obs.cancelUndeclared = await ctx.deliberate(session.request('tasks/cancel', { taskId: r.taskId }));
          obs.update = await session.request('tasks/update', { taskId: r.taskId, inputResponses: {} }, ext);
          // A fast tool may have ended by now: the gets after each request say whether it might have.
          obs.afterUpdate = await session.request('tasks/get', { taskId: r.taskId }, ext);
          run.polls.push(obs.afterUpdate);
          const cancel = await session.request('tasks/cancel', { taskId: r.taskId }, ext);
          obs.cancelled = { run, cancel };
          obs.cancelled.after = await session.request('tasks/get', { taskId: r.taskId }, ext);
          run.polls.push(obs.cancelled.after);
        })(),
      );
    }
    // The 2025-11-25 params.task on a call the server answered without a task: it must be ignored
    // (the same kind of answer), neither refused nor taken as a request for a task.
    const direct = obs.probes.find((p) => {
      const r = resultOf(p.ex);
      return r !== undefined && r.resultType !== 'task' && r.isError !== true;
    });
    if (direct) {
      work.push(
        ctx
          .deliberate(session.request('tools/call', { name: direct.tool, arguments: argsOf(direct.tool), task: { ttl: 60_000 } }, { ...ext, timeoutMs }))
          .then((ex) => void (obs.legacyParam = { tool: direct.tool, plain: direct.ex, withTask: ex })),
      );
    }
    // Tools that asked for input (an MRTR input_required answer) or for a capability (-32021) first: as
    // tasks, with elicitation declared, they may ask during the work.
    const asking = [...obs.probes.filter((p) => resultOf(p.ex)?.resultType === 'input_required' || errorCode(p.ex) === -32021), ...tasked];
    work.push(partialUpdate(ctx, obs, asking.map((t) => ({ tool: t.tool, args: argsOf(t.tool) })), timeoutMs));
    for (const t of tasked) {
      work.push(ctx.deliberate(session.request('tools/call', { name: t.tool, arguments: argsOf(t.tool) }, { timeoutMs })).then((ex) => void obs.undeclared.push({ tool: t.tool, ex })));
    }
    // TB-14: find a call whose plain answer is an isError result, then make it as a task.
    work.push(
      (async () => {
        for (const t of tasked) {
          const tool = tools.find((x) => x.name === t.tool)!;
          const args = nearValidArgs(tool, options.seed);
          if (args === undefined) continue;
          const plain = await ctx.deliberate(session.request('tools/call', { name: t.tool, arguments: args }, { timeoutMs }));
          if (resultOf(plain)?.isError !== true) continue;
          const direct = await ctx.deliberate(session.request('tools/call', { name: t.tool, arguments: args }, { ...ext, timeoutMs }));
          obs.isError = { tool: t.tool, plain, direct };
          if (resultOf(direct)?.resultType === 'task') obs.isError.run = await modernRun(ctx, t.tool, args, direct);
          return;
        }
      })(),
    );
    await Promise.all(work);
    await side;
    return obs;
  },
});

