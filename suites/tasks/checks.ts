// tasks.*: tasks in both flavours. Legacy 2025-11-25 core tasks (TK25, TA-01..TA-19), judged on the
// tasks-legacy scenario and over every task message of the run (schema, lifecycle, timestamps);
// modern 2026-07-28 tasks extension io.modelcontextprotocol/tasks (XT, SEP-2663, TB-01..TB-20),
// judged on the tasks-modern scenario. Lifecycle and id checks follow every task across the run.

import { loadSchema } from '../../protocol/schema-registry.js';
import type { SpecVersion } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, oracle, skip, untestable, violated, type Judgement, type JudgeContext } from '../kit/check.js';
import { clipJson, errorCode, errorOf, evidence, isObj, outcome, resultOf } from '../kit/exchange.js';
import { every, firstOffenders, gated, type Precondition } from '../kit/judge.js';
import type { RunObservations } from '../kit/observations.js';
import type { Exchange } from '../ports/session.js';
import { sentRequest } from '../kit/request-shape.js';
import { subscriptionIdOf, subscriptionsScenario } from '../subscriptions/scenario.js';
import { legacyTaskOf, legacyTasksScenario, modernTasksScenario, RELATED_TASK, TASKS_EXTENSION, TERMINAL, type LegacyTasksObs, type TaskRun } from './scenarios.js';

const TASKS25 = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks';
const TASKS_EXT = 'https://modelcontextprotocol.io/extensions/tasks/overview';
const LEGACY_ONLY: SpecVersion[] = ['2025-11-25'];
const MODERN_ONLY: SpecVersion[] = ['2026-07-28'];
const BOTH: SpecVersion[] = ['2025-11-25', '2026-07-28'];
const LEGACY_REQ = { capabilities: ['tasks'] };
const MODERN_REQ = { extensions: [TASKS_EXTENSION] };

type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Task snapshots: every status report of the run, in the order the server sent them

export interface Snapshot {
  taskId: string;
  status: unknown;
  task: Obj;
  /** Where it came from: the method whose answer carried it, or a notification. */
  where: string;
  /** When it arrived (the last message of its exchange). */
  seq: number;
  /** When the request it answers was sent (none for a notification). */
  sent?: number;
  ex?: Exchange;
}

const lastSeq = (ex: Exchange) => (ex.seq.length ? Math.max(...ex.seq) : 0);
const firstSeq = (ex: Exchange) => (ex.seq.length ? Math.min(...ex.seq) : 0);

function sentTask(ex: Exchange): boolean {
  const p = sentRequest(ex)?.params;
  return isObj(p) && isObj(p.task);
}

/** Every task object the server sent in the run: created, polled, cancelled, listed, notified. */
export function snapshots(obs: RunObservations, legacy: boolean): Snapshot[] {
  const out: Snapshot[] = [];
  const add = (task: unknown, where: string, seq: number, ex?: Exchange) => {
    if (isObj(task) && typeof task.taskId === 'string') out.push({ taskId: task.taskId, status: task.status, task, where, seq, sent: ex && firstSeq(ex), ex });
  };
  for (const ex of obs.exchanges) {
    const req = sentRequest(ex);
    const r = resultOf(ex);
    if (!req || !r) continue;
    if (req.method === 'tools/call') {
      if (legacy && isObj(r.task)) add(r.task, 'CreateTaskResult', lastSeq(ex), ex);
      if (!legacy && r.resultType === 'task') add(r, 'CreateTaskResult', lastSeq(ex), ex);
    } else if (req.method === 'tasks/get' || (legacy && req.method === 'tasks/cancel')) add(r, req.method, lastSeq(ex), ex);
    else if (legacy && req.method === 'tasks/list' && Array.isArray(r.tasks)) for (const t of r.tasks) add(t, 'tasks/list', lastSeq(ex), ex);
  }
  const note = legacy ? 'notifications/tasks/status' : 'notifications/tasks';
  for (const e of obs.events) {
    const m = e.message;
    if (e.dir === 'in' && isObj(m) && m.method === note && isObj(m.params)) add(m.params, note, e.seq);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

// working and input_required may go to any status; the terminal ones (TERMINAL) never change.
const TASK_STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

function snapEvidence(s: Snapshot, what: string): Evidence {
  return { what, actual: clipJson(s.task), seq: [s.seq] };
}

// ---------------------------------------------------------------------------------------------
// shared judgements

/** A task run whose polling could not reach an end: why, for untestable verdicts. */
function unsettled(run: TaskRun | undefined): string | undefined {
  if (!run) return 'no task was created';
  if (!run.taskId) return `the task-augmented call got ${outcome(run.create)}, not a task`;
  if (run.boundReachedMs !== undefined) return `task ${run.taskId} had not ended when polling reached its bound (${run.boundReachedMs} ms, the tool timeout; raise --tool-timeout for slower tasks)`;
  if (!run.settled) return `polling task ${run.taskId} stopped: tasks/get got ${outcome(run.polls.at(-1))}`;
  return undefined;
}

function noTaskTool(obs: { tools: { name: string }[]; notCalled: { tool: string; why: string }[] }, what: string): Judgement {
  const why = obs.notCalled.length ? ` (${obs.notCalled.slice(0, 3).map((n) => `${n.tool}: ${n.why}`).join('; ')})` : '';
  return untestable(`${what}${why}`);
}

/** -32602 expected; the judgement names which request broke it. */
function expect32602(list: [string, Exchange | undefined][]): Judgement {
  const asked = list.filter(([, ex]) => ex && (ex.response || !ex.aborted));
  if (asked.length === 0) return untestable('no request was answered');
  const bad = asked.filter(([, ex]) => errorCode(ex) !== -32602);
  if (bad.length) return violated(bad.map(([w, ex]) => `${w} got ${outcome(ex)}`).join('; '), bad.map(([w, ex]) => evidence(w, ex, { expected: { error: { code: -32602 } } })));
  return holds(`${asked.map(([w]) => w).join(', ')}: -32602`);
}

/** Whether the server declares tasks in the flavour of the run's era: the capability (legacy) or the extension. */
function declaresTasks(ctx: JudgeContext): boolean {
  return ctx.era === 'legacy' ? isObj(ctx.capabilities.tasks) : isObj(ctx.capabilities.extensions) && TASKS_EXTENSION in ctx.capabilities.extensions;
}

/** Skip a server that declares no tasks in the flavour of the run's era. */
const tasksDeclared: Precondition<RunObservations> = (_, ctx) =>
  declaresTasks(ctx) ? undefined : skip(ctx.era === 'legacy' ? 'the server does not declare the tasks capability' : `the server does not declare the ${TASKS_EXTENSION} extension`);

/** Legacy: skip a server whose tasks capability lacks `name` (tasks.requests.tools.call, tasks.list, tasks.cancel). */
function legacyDeclares(key: keyof LegacyTasksObs['declared'], name: string): Precondition<LegacyTasksObs> {
  return (obs) => (obs.declared[key] ? undefined : skip(`the server does not declare ${name}`));
}
const toolsCallDeclared = legacyDeclares('toolsCall', 'tasks.requests.tools.call');
const listDeclared = legacyDeclares('list', 'tasks.list');
const cancelDeclared = legacyDeclares('cancel', 'tasks.cancel');

// ---------------------------------------------------------------------------------------------
// Legacy flavour

function legacyToolsCallDeclared(caps: Obj): boolean {
  const t = caps.tasks;
  return isObj(t) && isObj(t.requests) && isObj(t.requests.tools) && isObj(t.requests.tools.call);
}

const legacyChecks = [
  check(legacyTasksScenario, {
    id: 'tasks.create',
    title: 'a task-augmented tools/call on a tool whose taskSupport allows it returns a CreateTaskResult',
    requirements: ['TA-07', 'TA-05', 'TA-01'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      if (!obs.declared.toolsCall) return skip('the server does not declare tasks.requests.tools.call, so no tools/call may be task-augmented (TA-02)');
      if (!obs.main) return noTaskTool(obs, 'no tool with taskSupport optional or required could be called');
      const r = resultOf(obs.main.create);
      const task = r && isObj(r.task) ? r.task : undefined;
      if (!task || typeof task.taskId !== 'string') {
        return violated(`task-augmented tools/call ${obs.main.tool} got ${r ? 'a result without task.taskId' : outcome(obs.main.create)}`, [evidence('task-augmented tools/call', obs.main.create, { expected: 'CreateTaskResult { task: Task }' })]);
      }
      return holds(`${obs.main.tool} answered a task-augmented call with task ${task.taskId}`);
    },
  }),
  oracle({
    id: 'tasks.initial-working',
    title: 'a new task starts in status working: the CreateTaskResult, the one report of the task as it was created, says working (lastUpdatedAt does not excuse another status)',
    requirements: ['TA-06', 'TA-07'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      const stamps = (s: Snapshot) => (s.task.lastUpdatedAt === s.task.createdAt ? 'lastUpdatedAt = createdAt' : `createdAt ${String(s.task.createdAt)}, lastUpdatedAt ${String(s.task.lastUpdatedAt)}`);
      return every(snapshots(obs, true).filter((s) => s.where === 'CreateTaskResult'), {
        none: 'no task was created in the run',
        // TA-06 is a MUST on the state a task is created in, and the CreateTaskResult (returned as soon
        // as the task is accepted, TA-07) is the requestor's only view of the task at creation. An
        // earlier version let a non-working status pass when lastUpdatedAt was later than createdAt (the
        // task "visibly moved on"); that made the verdict depend on the server's clock resolution: the
        // same server, doing the same thing, passed or failed by the millisecond. The status alone decides now.
        offends: (s) => s.status !== 'working',
        violated: (bad, created) => `${bad.length} of ${created.length} CreateTaskResults report a new task as ${bad.map((s) => `${JSON.stringify(s.status)} (${stamps(s)})`).join(', ')}, not working`,
        evidence: (s) => snapEvidence(s, 'CreateTaskResult task'),
        holds: (created) => `${created.length} task(s) created working`,
      });
    },
  }),
  oracle({
    id: 'tasks.schema',
    title: 'every task message (CreateTaskResult, tasks/get, tasks/list, tasks/cancel, notifications/tasks/status) validates against the 2025-11-25 tasks schema',
    requirements: ['TA-07', 'TA-08', 'TA-13'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      const doc = loadSchema('ext-tasks-2025-11-25');
      const items: [string, unknown, Evidence][] = [];
      for (const ex of obs.exchanges) {
        const req = sentRequest(ex);
        const r = resultOf(ex);
        if (!req || !r) continue;
        const def = req.method === 'tools/call' && isObj(r.task) ? 'CreateTaskResult'
          : req.method === 'tasks/get' ? 'GetTaskResult' : req.method === 'tasks/cancel' ? 'CancelTaskResult' : req.method === 'tasks/list' ? 'ListTasksResult' : undefined;
        if (def) items.push([def, r, evidence(`${req.method} result`, ex)]);
      }
      for (const e of obs.events) {
        if (e.dir === 'in' && isObj(e.message) && e.message.method === 'notifications/tasks/status') items.push(['TaskStatusNotification', e.message, { what: 'notifications/tasks/status', actual: clipJson(e.message), seq: [e.seq] }]);
      }
      if (items.length === 0) return untestable('the server sent no task message');
      const bad: Evidence[] = [];
      for (const [def, value, ev] of items) {
        const v = doc.validate(def, value);
        if (!v.valid) bad.push({ ...ev, expected: `${def}: ${v.errors[0]?.message ?? 'invalid'}`, pointer: v.errors[0]?.instancePath });
      }
      if (bad.length) return violated(`${bad.length} of ${items.length} task messages are invalid; first: ${bad[0].what} (${bad[0].pointer || '/'}: ${String(bad[0].expected)})`, firstOffenders(bad));
      return holds(`${items.length} task messages valid against the 2025-11-25 tasks schema`);
    },
  }),
  oracle({
    id: 'tasks.timestamps',
    title: 'every task carries ISO 8601 createdAt and lastUpdatedAt (createdAt never changes, lastUpdatedAt never precedes it) and tasks/get gives the actual ttl',
    requirements: ['TA-08'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      const snaps = snapshots(obs, true);
      if (snaps.length === 0) return untestable('the server sent no task');
      const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
      const bad: Evidence[] = [];
      const created = new Map<string, unknown>();
      for (const s of snaps) {
        const { createdAt, lastUpdatedAt, ttl } = s.task;
        const problems: string[] = [];
        for (const [k, v] of [['createdAt', createdAt], ['lastUpdatedAt', lastUpdatedAt]] as const) {
          if (typeof v !== 'string' || !iso.test(v) || Number.isNaN(Date.parse(v))) problems.push(`${k} ${JSON.stringify(v)} is not an ISO 8601 timestamp`);
        }
        if (!problems.length && Date.parse(lastUpdatedAt as string) < Date.parse(createdAt as string)) problems.push('lastUpdatedAt precedes createdAt');
        if (created.has(s.taskId) && created.get(s.taskId) !== createdAt) problems.push(`createdAt changed from ${JSON.stringify(created.get(s.taskId))} to ${JSON.stringify(createdAt)}`);
        if (!created.has(s.taskId)) created.set(s.taskId, createdAt);
        if (s.where === 'tasks/get' && !(ttl === null || (typeof ttl === 'number' && Number.isInteger(ttl)))) problems.push(`tasks/get ttl ${JSON.stringify(ttl)} is neither an integer nor null`);
        if (problems.length) bad.push({ ...snapEvidence(s, `${s.where} task ${s.taskId}`), expected: problems.join('; ') });
      }
      if (bad.length) return violated(`${bad.length} of ${snaps.length} task reports: ${String(bad[0].expected)}`, firstOffenders(bad));
      return holds(`${snaps.length} task reports of ${created.size} tasks carry valid timestamps`);
    },
  }),
  oracle({
    id: 'tasks.only-requested',
    title: 'a tools/call without params.task is never answered with a task (tasks are created only for task-augmented requests the server declared)',
    requirements: ['TA-01', 'TA-02', 'TA-04'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    // Judged on every 2025-11-25 server: one that declares no tasks at all must never answer with one (TA-04).
    spec: TASKS25,
    judge(obs, ctx) {
      const calls = obs.exchanges.filter((ex) => sentRequest(ex)?.method === 'tools/call' && resultOf(ex));
      const plain = calls.filter((ex) => !sentTask(ex));
      const tasked = calls.filter((ex) => isObj(resultOf(ex)!.task));
      if (plain.length === 0) return untestable('no tools/call without params.task got a result');
      const bad = plain.filter((ex) => isObj(resultOf(ex)!.task));
      if (!legacyToolsCallDeclared(ctx.capabilities)) bad.push(...tasked.filter((ex) => !bad.includes(ex)));
      if (bad.length) return violated(`${bad.length} tools/call answered with a task ${legacyToolsCallDeclared(ctx.capabilities) ? 'though the request had no params.task' : 'though the server does not declare tasks.requests.tools.call'}`, firstOffenders(bad).map((ex) => evidence('tools/call answered with a task', ex, { expected: 'a CallToolResult' })));
      return holds(`${plain.length} plain tools/call answered without a task${tasked.length ? `; ${tasked.length} task-augmented ones created tasks` : ''}`);
    },
  }),
  check(legacyTasksScenario, {
    id: 'tasks.result',
    title: 'tasks/result waits until the task ends and then returns what the request would have: a CallToolResult when completed, its error (or an isError result) when failed',
    requirements: ['TA-10', 'TA-17'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([toolsCallDeclared], (obs) => {
      const m = obs.main;
      if (!m?.taskId) return noTaskTool(obs, m ? `the task-augmented call got ${outcome(m.create)}` : 'no tool with taskSupport optional or required could be called');
      const ex = m.result;
      if (!ex?.response) return untestable(`tasks/result got ${outcome(ex)}${m.boundReachedMs !== undefined ? ' (the task had not ended within the poll bound)' : ''}`);
      const after = resultOf(m.afterResult);
      if (!after || !TERMINAL.has(String(after.status))) {
        return violated(`tasks/result answered while the task was not finished: tasks/get right after it says ${after ? JSON.stringify(after.status) : outcome(m.afterResult)}`, [evidence('tasks/result', ex), evidence('tasks/get after tasks/result', m.afterResult, { expected: 'a terminal status' })]);
      }
      // The first terminal status seen rules (a later change is tasks.transitions' matter).
      const ends = [...m.polls, m.afterResult!].filter((p) => TERMINAL.has(String(resultOf(p)?.status))).sort((a, b) => lastSeq(a) - lastSeq(b));
      const status = String(resultOf(ends[0])!.status);
      const r = resultOf(ex);
      if (status === 'completed') {
        const v = loadSchema('2025-11-25').validate('CallToolResult', r ?? {});
        if (!r || !v.valid) return violated(`the completed task's tasks/result is ${r ? `not a CallToolResult (${v.errors[0]?.instancePath || '/'} ${v.errors[0]?.message})` : outcome(ex)}`, [evidence('tasks/result of a completed tools/call task', ex, { expected: 'CallToolResult' })]);
      } else if (status === 'failed') {
        if (!errorOf(ex) && r?.isError !== true) return violated('the failed task\'s tasks/result is a successful result', [evidence('tasks/result of a failed task', ex, { expected: 'the JSON-RPC error or an isError result' })]);
      }
      return holds(`tasks/result waited for task ${m.taskId} to end (${status}) and returned ${errorOf(ex) ? 'its error' : 'its result'}`);
    }),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.related-task',
    title: 'the tasks/result response carries _meta["io.modelcontextprotocol/related-task"] naming the task',
    requirements: ['TA-10', 'TA-12'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([toolsCallDeclared], (obs) => {
      const m = obs.main;
      if (!m?.taskId || !m.result?.response) return untestable(m?.taskId ? `tasks/result got ${outcome(m.result)}` : 'no task was created');
      const r = resultOf(m.result);
      const err = errorOf(m.result);
      const meta = r ? r._meta : isObj(err?.data) ? (err.data as Obj)._meta : undefined;
      const related = isObj(meta) ? meta[RELATED_TASK] : undefined;
      if (!isObj(related) || related.taskId !== m.taskId) {
        if (err && !r) return untestable('tasks/result answered with an error, which has no _meta to carry the related-task key');
        return violated(`tasks/result _meta["${RELATED_TASK}"] is ${JSON.stringify(related)}`, [evidence('tasks/result', m.result, { expected: { _meta: { [RELATED_TASK]: { taskId: m.taskId } } } })]);
      }
      return holds(`tasks/result names task ${m.taskId} in its related-task metadata`);
    }),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.list',
    title: 'tasks/list lists every task the requestor created, following nextCursor to the end',
    requirements: ['TA-18', 'PG-03'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([listDeclared], (obs) => {
      if (!obs.list) return untestable('tasks/list was not asked');
      if (obs.list.failed) return violated(`tasks/list got ${outcome(obs.list.failed)}`, [evidence('tasks/list', obs.list.failed)]);
      if (obs.list.loop || obs.list.truncated) return violated(`tasks/list pagination ${obs.list.loop ? 'loops' : 'never ends'}`, [evidence('tasks/list last page', obs.list.pages.at(-1))]);
      const created = [obs.main, obs.extra, obs.cancelled?.run].map((r) => r?.taskId).filter((id): id is string => !!id);
      if (created.length === 0) return untestable('no task was created, so none could be looked for in tasks/list');
      const missing = created.filter((id) => !obs.list!.ids.includes(id));
      if (missing.length) return violated(`${missing.length} of ${created.length} created tasks are missing from tasks/list (${obs.list.pages.length} pages)`, [{ what: 'tasks/list ids', expected: created, actual: obs.list.ids.slice(0, 20), seq: obs.list.pages.flatMap((p) => p.seq).slice(0, 20) }]);
      return holds(`tasks/list (${obs.list.pages.length} page(s)) lists all ${created.length} tasks mcpspec created`);
    }),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.list-bad-cursor',
    title: 'tasks/list with a cursor the server never issued is refused with -32602',
    requirements: ['TA-14', 'PG-04'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([listDeclared], (obs) => expect32602([['tasks/list with an invented cursor', obs.badCursor]])),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.cancel',
    title: 'tasks/cancel of a working task answers with the task already cancelled, and it stays cancelled',
    requirements: ['TA-15'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([cancelDeclared], (obs) => {
      const c = obs.cancelled;
      if (!c) return noTaskTool(obs, 'no task was created to cancel');
      const r = resultOf(c.cancel);
      const after = resultOf(c.after);
      // A fast task may end before the cancel arrives: then this is a cancel of a finished task, whose
      // answer (any error, or the task as it ended) is tasks.cancel-terminal's matter. Ended on its own =
      // a report at or after the cancel says completed or failed (the cancel would have made it cancelled).
      const endedOwn = (x: Obj | undefined) => (x && (x.status === 'completed' || x.status === 'failed') ? String(x.status) : undefined);
      const ended = endedOwn(legacyTaskOf(resultOf(c.run.create))) ?? endedOwn(r) ?? (r ? undefined : endedOwn(after));
      if (ended) return untestable(`task ${c.run.taskId} may have ended (${ended}) before tasks/cancel arrived (it got ${r ? `the task, ${ended}` : outcome(c.cancel)}): not a cancel of a working task`);
      if (!r) {
        return violated(`tasks/cancel of a working task got ${outcome(c.cancel)}`, [evidence('tasks/cancel', c.cancel, { expected: 'the task with status cancelled' })]);
      }
      if (r.status !== 'cancelled') return violated(`tasks/cancel answered with status ${JSON.stringify(r.status)}, not cancelled`, [evidence('tasks/cancel', c.cancel, { expected: { status: 'cancelled' } })]);
      if (after && after.status !== 'cancelled') return violated(`after tasks/cancel, tasks/get says ${JSON.stringify(after.status)}`, [evidence('tasks/get after tasks/cancel', c.after, { expected: { status: 'cancelled' } })]);
      return holds(`task ${c.run.taskId} was cancelled before the response and stayed cancelled`);
    }),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.cancel-terminal',
    title: 'tasks/cancel of a task that already ended is refused with -32602',
    requirements: ['TA-14'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge: gated([cancelDeclared], (obs) => {
      if (!obs.cancelTerminal) return untestable(unsettled(obs.main) ?? 'no task ended');
      return expect32602([[`tasks/cancel of ${String(obs.main?.settled)} task ${String(obs.main?.taskId)}`, obs.cancelTerminal]]);
    }),
  }),
  check(legacyTasksScenario, {
    id: 'tasks.unknown-id',
    title: 'tasks/get, tasks/result and tasks/cancel of an unknown taskId are refused with -32602',
    requirements: ['TA-14'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      const list: [string, Exchange | undefined][] = [['tasks/get', obs.unknown.get], ['tasks/result', obs.unknown.result]];
      if (obs.declared.cancel) list.push(['tasks/cancel', obs.unknown.cancel]);
      return expect32602(list);
    },
  }),
  check(legacyTasksScenario, {
    id: 'tasks.required-without-task',
    title: 'a tool with taskSupport "required" called without params.task is refused with -32601 (-32600 accepted: the spec\'s error section allows it)',
    requirements: ['TA-03'],
    level: 'MUST',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      if (!obs.requiredPlain) {
        const req = obs.tools.filter((t) => isObj(t.execution) && t.execution.taskSupport === 'required');
        return req.length ? noTaskTool(obs, `no tool with taskSupport required could be called (${req.map((t) => t.name).join(', ')})`) : untestable('no tool declares taskSupport "required"');
      }
      const { tool, ex } = obs.requiredPlain;
      const code = errorCode(ex);
      if (code === -32601) return holds(`${tool} without params.task: -32601`);
      if (code === -32600) return holds(`${tool} without params.task: -32600 (the tasks page's error section allows it; its tool section says -32601)`);
      if (!ex.response) return untestable(`${tool} without params.task got ${outcome(ex)}`);
      return violated(`${tool} (taskSupport required) without params.task got ${outcome(ex)}`, [evidence('tools/call without params.task', ex, { expected: { error: { code: -32601 } } })]);
    },
  }),
  check(legacyTasksScenario, {
    id: 'tasks.forbidden-with-task',
    title: 'a tool whose taskSupport is absent or "forbidden" called with params.task is refused with -32601',
    requirements: ['TA-03'],
    level: 'SHOULD',
    versions: LEGACY_ONLY,
    requires: LEGACY_REQ,
    spec: TASKS25,
    judge(obs) {
      if (!obs.declared.toolsCall) return skip('the server does not declare tasks.requests.tools.call (then a task-augmented call is processed normally, TA-04)');
      if (!obs.forbiddenTask) return noTaskTool(obs, 'no tool without task support could be called');
      const { tool, ex } = obs.forbiddenTask;
      if (!ex.response) return untestable(`${tool} with params.task got ${outcome(ex)}`);
      if (errorCode(ex) === -32601) return holds(`${tool} with params.task: -32601`);
      return violated(`${tool} (taskSupport forbidden) with params.task got ${outcome(ex)}`, [evidence('tools/call with params.task', ex, { expected: { error: { code: -32601 } } })]);
    },
  }),
];

// ---------------------------------------------------------------------------------------------
// Both flavours

const sharedOracles = [
  oracle({
    id: 'tasks.ids-unique',
    title: 'every task the server creates gets a taskId of its own: no CreateTaskResult names the task of an earlier one',
    requirements: ['TA-05'],
    level: 'MUST',
    versions: BOTH,
    spec: TASKS25,
    judge: gated([tasksDeclared], (obs, ctx) => {
      const legacy = ctx.era === 'legacy';
      const created = snapshots(obs, legacy).filter((s) => s.where === 'CreateTaskResult');
      if (created.length < 2) return untestable(created.length ? 'only one task was created: nothing to tell its id apart from' : 'no task was created in the run');
      const first = new Map<string, Snapshot>();
      const bad: Evidence[] = [];
      for (const c of created) {
        const earlier = first.get(c.taskId);
        if (earlier && earlier.ex !== c.ex) bad.push(evidence(`task ${c.taskId} created again (first created at message ${earlier.seq})`, c.ex, { pointer: legacy ? '/result/task/taskId' : '/result/taskId', expected: 'a taskId no earlier task had' }));
        else if (!earlier) first.set(c.taskId, c);
      }
      if (bad.length) return violated(`${bad.length} of ${created.length} created tasks reuse the taskId of an earlier task`, firstOffenders(bad));
      return holds(`${created.length} tasks created, each with its own taskId`);
    }),
  }),
  oracle({
    id: 'tasks.transitions',
    title: 'across every report of the run, each task moves only along allowed transitions and never leaves a terminal status',
    requirements: ['TA-06', 'TA-15', 'TB-16'],
    level: 'MUST',
    versions: BOTH,
    spec: TASKS25,
    judge: gated([tasksDeclared], (obs, ctx) => {
      const legacy = ctx.era === 'legacy';
      const snaps = snapshots(obs, legacy);
      const byTask = new Map<string, Snapshot[]>();
      for (const s of snaps) byTask.set(s.taskId, [...(byTask.get(s.taskId) ?? []), s]);
      const followed = [...byTask.values()].filter((l) => l.length > 1);
      if (followed.length === 0) return untestable(snaps.length ? 'no task was seen more than once' : 'the server sent no task');
      const bad: Evidence[] = [];
      const notes: string[] = [];
      const change = (a: Snapshot, b: Snapshot): Evidence => ({ what: `task ${a.taskId}: ${String(a.status)} (${a.where}) then ${String(b.status)} (${b.where})`, actual: [clipJson(a.task), clipJson(b.task)], seq: [a.seq, b.seq] });
      for (const list of followed) {
        // Arrival order is not the server's order: over HTTP a working answer written before the end can
        // arrive after a notification of the end on another stream. So: two different terminal statuses
        // are a change whatever their order; a non-terminal report counts only if it was asked for after
        // a terminal one had arrived.
        const ends = list.filter((s) => TERMINAL.has(String(s.status)));
        const conflict = ends.filter((s) => s.status !== ends[0].status);
        if (conflict.length) for (const b of conflict) bad.push(change(ends[0], b));
        else {
          for (const b of list) {
            const a = b.sent === undefined || TERMINAL.has(String(b.status)) ? undefined : ends.find((e) => e.seq < b.sent!);
            if (a) bad.push(change(a, b));
          }
        }
        if (!legacy && list[0].where === 'CreateTaskResult' && list[0].status !== 'working') notes.push(`task ${list[0].taskId} started ${String(list[0].status)} (typically working, TB-16: not required)`);
      }
      if (bad.length) return violated(`${bad.length} disallowed transition(s); first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${followed.length} tasks followed over ${snaps.length} reports, every transition allowed${notes.length ? `; note: ${notes[0]}` : ''}`);
    }),
  }),
  oracle({
    id: 'tasks.ids',
    title: 'task ids show no guessable pattern (sequential counters, shared prefix plus counter, very short ids)',
    requirements: ['TB-20', 'TA-19', 'TA-05'],
    level: 'MUST',
    versions: BOTH,
    spec: TASKS_EXT,
    judge(obs, ctx) {
      const legacy = ctx.era === 'legacy';
      const created = snapshots(obs, legacy).filter((s) => s.where === 'CreateTaskResult');
      const ids = [...new Set(created.map((s) => s.taskId))];
      // Too few ids: a server that created no task and declares none is skipped, as by the other task oracles.
      if (ids.length < 2) return (created.length ? undefined : tasksDeclared(obs, ctx)) ?? untestable(`${ids.length} task id(s) seen; at least 2 are needed to look for a pattern`);
      const problem = guessable(ids);
      if (problem) return violated(`task ids are guessable: ${problem}`, [{ what: 'task ids', actual: ids.slice(0, 10), seq: created.slice(0, 10).map((s) => s.seq) }]);
      return holds(`${ids.length} task ids, no visible pattern`);
    },
  }),
];

/** A visible pattern in a set of ids, or undefined. Entropy is not measured: only patterns anyone could guess from two ids. */
export function guessable(ids: string[]): string | undefined {
  const short = ids.filter((id) => id.length < 8);
  if (short.length) return `${short.length} id(s) shorter than 8 characters (${firstOffenders(short).map((s) => JSON.stringify(s)).join(', ')})`;
  let prefix = ids[0];
  for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const rests = ids.map((id) => id.slice(prefix.length));
  if (rests.every((r) => /^\d{1,9}$/.test(r))) {
    const nums = rests.map(Number).sort((a, b) => a - b);
    if (nums.at(-1)! - nums[0] < 10 * ids.length) return `a shared prefix ${JSON.stringify(prefix)} plus a counter (${rests.slice(0, 5).join(', ')})`;
  }
  const numeric = ids.every((id) => /^\d+$/.test(id));
  if (numeric) {
    const nums = ids.map(Number).sort((a, b) => a - b);
    if (nums.at(-1)! - nums[0] < 10 * ids.length) return `numeric ids close together (${ids.slice(0, 5).join(', ')})`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Modern flavour (SEP-2663)

function noModernTask(obs: { probes: { tool: string; ex: Exchange }[]; notCalled: { tool: string; why: string }[]; tools: { name: string }[] }): Judgement {
  if (obs.probes.length === 0) return noTaskTool(obs, obs.tools.length ? 'no tool could be called' : 'the server lists no tools');
  return untestable(`none of ${obs.probes.length} tool call(s) declaring the tasks extension was answered with a task (${obs.probes.slice(0, 3).map((p) => `${p.tool}: ${outcome(p.ex)}`).join('; ')})`);
}

const modernChecks = [
  check(modernTasksScenario, {
    id: 'tasks.modern-create',
    title: 'a task answer is a flat CreateTaskResult (resultType "task") valid against the tasks extension schema, and the task can be read at once',
    requirements: ['TB-05', 'TB-06', 'TB-04', 'RT-07'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      // A task (taskId and a task status, no content or an empty one, as the 2.x SDK's ext-tasks sends)
      // labelled with another resultType: the client would read it as a finished call with nothing in
      // it and never poll (RT-07: "task" is the CreateTaskResult's own).
      const mislabelled = obs.probes.filter((p) => {
        const r = resultOf(p.ex);
        const empty = r?.content === undefined || (Array.isArray(r.content) && r.content.length === 0);
        return r !== undefined && r.resultType !== 'task' && typeof r.taskId === 'string' && TASK_STATUSES.has(r.status as string) && empty;
      });
      if (mislabelled.length) {
        return violated(
          `${mislabelled.length} task answer(s) say resultType ${JSON.stringify(resultOf(mislabelled[0].ex)!.resultType)}, not "task"; first: ${mislabelled[0].tool}`,
          firstOffenders(mislabelled).map((p) => evidence(`tools/call ${p.tool}`, p.ex, { pointer: '/result/resultType', expected: 'task', actual: resultOf(p.ex)!.resultType })),
        );
      }
      const created = obs.probes.filter((p) => resultOf(p.ex)?.resultType === 'task');
      if (created.length === 0) return noModernTask(obs);
      const doc = loadSchema('ext-tasks-draft');
      const bad: Evidence[] = [];
      for (const p of created) {
        const v = doc.validate('CreateTaskResult', resultOf(p.ex));
        if (!v.valid) bad.push(evidence(`tools/call ${p.tool} CreateTaskResult`, p.ex, { pointer: `/result${v.errors[0]?.instancePath ?? ''}`, expected: v.errors[0]?.message }));
      }
      if (bad.length) return violated(`${bad.length} of ${created.length} CreateTaskResults are invalid; first: ${bad[0].pointer}: ${String(bad[0].expected)}`, firstOffenders(bad));
      const first = obs.main?.polls[0];
      if (first && !resultOf(first) && errorCode(first) === -32602) return violated(`tasks/get right after the CreateTaskResult got ${outcome(first)}: the task was not durably created (TB-06)`, [evidence('first tasks/get', first)]);
      return holds(`${created.length} CreateTaskResult(s) valid`);
    },
  }),
  // The official suite (sep-2663-server-returns-missing-capability-when-required) demands -32021 for a
  // tool its fixture registers as task-required. The text makes the error conditional: "If a server is
  // unable to service a request to a client that does not declare this extension capability without
  // returning CreateTaskResult, the server MUST return an error with the code -32021" (SEP-2663,
  // Capability Negotiation). The extension has no taskSupport any more, so whether a tool needs a task
  // is not on the wire; a plain result shows the server could serve the request, and is conformant.
  check(modernTasksScenario, {
    id: 'tasks.modern-undeclared',
    title: 'a task tool called without the extension declared gets no task: a plain result, or -32021 naming the extension in data.requiredCapabilities (a plain result passes: the -32021 MUST is for a server unable to serve the call without a task)',
    requirements: ['TB-03', 'RT-06', 'EX-03'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      if (obs.undeclared.length === 0) return noModernTask(obs);
      const bad: Evidence[] = [];
      for (const { tool, ex } of obs.undeclared) {
        const r = resultOf(ex);
        if (r?.resultType === 'task') bad.push(evidence(`${tool} without the extension`, ex, { expected: 'no task' }));
        else if (errorCode(ex) === -32021) {
          const data = errorOf(ex)!.data;
          const req = isObj(data) && isObj(data.requiredCapabilities) ? data.requiredCapabilities : undefined;
          if (!(req && isObj(req.extensions) && TASKS_EXTENSION in req.extensions)) bad.push(evidence(`${tool} without the extension: -32021`, ex, { expected: { data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } }));
        }
      }
      if (bad.length) return violated(`${bad.length} of ${obs.undeclared.length}: ${bad[0].what} ${bad[0].expected === 'no task' ? 'got a task' : 'lacks data.requiredCapabilities.extensions'}`, bad);
      return holds(obs.undeclared.map(({ tool, ex }) => `${tool}: ${outcome(ex)}`).join('; '));
    },
  }),
  check(modernTasksScenario, {
    id: 'tasks.modern-get',
    title: 'every tasks/get answer is a DetailedTask for its status (result when completed, error when failed) with resultType "complete"',
    requirements: ['TB-08', 'RT-07', 'TB-09'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      const polls = [obs.main, obs.isError?.run, obs.cancelled?.run].flatMap((r) => r?.polls ?? []).filter((ex) => resultOf(ex));
      if (polls.length === 0) return obs.main ? untestable(unsettled(obs.main) ?? 'tasks/get gave no result') : noModernTask(obs);
      const doc = loadSchema('ext-tasks-draft');
      const bad: Evidence[] = [];
      for (const ex of polls) {
        const r = resultOf(ex)!;
        const v = doc.validate('GetTaskResult', r);
        if (!v.valid || r.resultType !== 'complete') bad.push(evidence(`tasks/get (${String(r.status)})`, ex, { expected: r.resultType !== 'complete' ? { resultType: 'complete' } : `DetailedTask for ${String(r.status)}: ${v.errors.at(-1)?.message}` }));
      }
      if (bad.length) return violated(`${bad.length} of ${polls.length} tasks/get answers are not a valid DetailedTask; first: ${bad[0].what}`, firstOffenders(bad));
      const statuses = [...new Set(polls.map((ex) => String(resultOf(ex)!.status)))].join(', ');
      const why = unsettled(obs.main);
      return holds(`${polls.length} tasks/get answers (${statuses}) valid${why ? `; ${why}` : ''}`);
    },
  }),
  check(modernTasksScenario, {
    id: 'tasks.modern-acks',
    title: 'tasks/update and tasks/cancel are acknowledged with an empty result (resultType "complete")',
    requirements: ['TB-12', 'TB-13', 'RT-07'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      const c = obs.cancelled;
      if (!c) return obs.main ? untestable('the second task for tasks/update and tasks/cancel was not created') : noModernTask(obs);
      // TB-12/TB-13 ask an ack of a request on a running task; for one that had already ended the text
      // says nothing, so an error then is not judged. A fast tool may end before either request arrives:
      // whether it might have is read from the next tasks/get (a cancelled there is our own cancel's doing).
      const status = (ex: Exchange | undefined) => String(resultOf(ex)?.status);
      const anyEnd = (ex: Exchange | undefined) => (TERMINAL.has(status(ex)) ? status(ex) : undefined);
      const ownEnd = (ex: Exchange | undefined) => (status(ex) === 'completed' || status(ex) === 'failed' ? status(ex) : undefined);
      const atCreation = anyEnd(c.run.create) && `${status(c.run.create)} at creation`;
      const acks: [string, Exchange | undefined, string | undefined][] = [
        ['tasks/update', obs.update, atCreation || (resultOf(obs.afterUpdate) ? anyEnd(obs.afterUpdate) : ownEnd(c.after))],
        ['tasks/cancel', c.cancel, atCreation || anyEnd(obs.afterUpdate) || ownEnd(c.after)],
      ];
      const refusedAfterEnd = acks.filter(([, ex, ended]) => ended && errorOf(ex));
      const judged = acks.filter((a) => !refusedAfterEnd.includes(a));
      const bad = judged.filter(([, ex]) => {
        const r = resultOf(ex);
        return !r || r.resultType !== 'complete' || Object.keys(r).some((k) => k !== 'resultType' && k !== '_meta');
      });
      if (bad.length) return violated(bad.map(([w, ex]) => `${w} got ${resultOf(ex) ? JSON.stringify(resultOf(ex)).slice(0, 120) : outcome(ex)}`).join('; '), bad.map(([w, ex]) => evidence(w, ex, { expected: { resultType: 'complete' } })));
      const excused = refusedAfterEnd.map(([w, ex, ended]) => `${w} got ${outcome(ex)}, but task ${String(c.run.taskId)} may have ended (${String(ended)}) before it arrived`).join('; ');
      if (judged.length === 0) return untestable(`${excused}: an ack is asked of a running task only`);
      return holds(`${judged.map(([w]) => w).join(' and ')} acknowledged with empty results${excused ? `; not judged: ${excused}` : ''}`);
    },
  }),
  check(modernTasksScenario, {
    id: 'tasks.modern-is-error',
    title: 'a task whose tool result has isError: true ends completed with that result, not failed',
    requirements: ['TB-14'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      const e = obs.isError;
      if (!e) return obs.main ? untestable('no near-valid call of a task tool produced an isError result') : noModernTask(obs);
      if (!e.run) return untestable(`the isError call declaring the extension got ${resultOf(e.direct) ? 'a direct result, not a task' : outcome(e.direct)}`);
      const why = unsettled(e.run);
      if (why) return untestable(why);
      // The first report of the end (a later change of a terminal status is tasks.transitions' matter).
      const end = e.run.polls.find((p) => TERMINAL.has(String(resultOf(p)?.status)))!;
      const last = resultOf(end)!;
      if (last.status !== 'completed') return violated(`the task of a call whose result is isError ended ${JSON.stringify(last.status)}`, [evidence('plain call (isError result)', e.plain), evidence('tasks/get at the end', end, { expected: { status: 'completed', result: { isError: true } } })]);
      const r = last.result;
      if (!isObj(r) || r.isError !== true) return violated('the completed task\'s result is not the isError result', [evidence('tasks/get at the end', end, { expected: { result: { isError: true } } })]);
      return holds(`${e.tool}: the isError result ended completed, with the result`);
    },
  }),
  check(modernTasksScenario, {
    id: 'tasks.modern-unknown-id',
    title: 'tasks/get of an unknown taskId is refused with -32602 (tasks/update and tasks/cancel should be too)',
    requirements: ['TB-15', 'TB-12', 'TB-13'],
    level: 'MUST',
    versions: MODERN_ONLY,
    requires: MODERN_REQ,
    spec: TASKS_EXT,
    judge(obs) {
      const j = expect32602([['tasks/get', obs.unknown.get]]);
      if (j.outcome !== 'holds') return j;
      const others = (['update', 'cancel'] as const).filter((k) => errorCode(obs.unknown[k]) !== -32602).map((k) => `tasks/${k}: ${outcome(obs.unknown[k])}`);
      return holds(`tasks/get: -32602${others.length ? `; note (SHOULD): ${others.join('; ')}` : '; tasks/update and tasks/cancel: -32602'}`);
    },
  }),
];

const notifyCheck = check(subscriptionsScenario, {
  id: 'tasks.modern-notify',
  title: 'subscriptions/listen with taskIds: the acknowledgement accepts the task, and each notifications/tasks carries a full DetailedTask',
  requirements: ['TB-17'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const l = obs.task;
    if (!l) return untestable(obs.noTask ?? 'no task was created to listen to');
    if (errorOf(l.exchange)) return untestable(`subscriptions/listen with taskIds was refused: ${outcome(l.exchange)}`);
    const ack = l.window.find((m) => m.message.method === 'notifications/subscriptions/acknowledged' && subscriptionIdOf(m.message) === l.id);
    const ackIds = ack && isObj(ack.message.params) && isObj(ack.message.params.notifications) ? ack.message.params.notifications.taskIds : undefined;
    if (!Array.isArray(ackIds) || !ackIds.includes(l.taskId)) return untestable(`the acknowledgement does not accept task ${l.taskId} (taskIds ${JSON.stringify(ackIds)}): task notifications are optional`);
    const notes = l.window.filter((m) => m.message.method === 'notifications/tasks' && isObj(m.message.params) && m.message.params.taskId === l.taskId);
    if (notes.length === 0) return untestable(`no notifications/tasks for task ${l.taskId} within ${l.boundMs} ms`);
    const doc = loadSchema('ext-tasks-draft');
    const bad: Evidence[] = [];
    for (const n of notes) {
      const v = doc.validate('TaskStatusNotification', n.message);
      if (!v.valid) bad.push({ what: `notifications/tasks (${String((n.message.params as Obj).status)})`, actual: clipJson(n.message), pointer: v.errors.at(-1)?.instancePath, expected: v.errors.at(-1)?.message, seq: [n.seq] });
    }
    if (bad.length) return violated(`${bad.length} of ${notes.length} task notifications are not a full DetailedTask; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${notes.length} notifications/tasks for task ${l.taskId} (${notes.map((n) => String((n.message.params as Obj).status)).join(' -> ')}), each a valid DetailedTask`);
  },
});

const undeclaredGetCheck = check(modernTasksScenario, {
  id: 'tasks.modern-get-undeclared',
  title: 'tasks/get of a real task by a request that does not declare the tasks extension gets -32021 naming the extension',
  requirements: ['TB-15', 'EX-03'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const ex = obs.getUndeclared;
    if (!ex) return obs.main ? untestable('no second task was created to read without the extension') : noModernTask(obs);
    if (ex.aborted || ex.timedOut) return untestable(`tasks/get without the extension got ${outcome(ex)}`);
    const data = errorOf(ex)?.data;
    const required = isObj(data) && isObj(data.requiredCapabilities) && isObj(data.requiredCapabilities.extensions) && TASKS_EXTENSION in data.requiredCapabilities.extensions;
    if (errorCode(ex) === -32021 && required) return holds('tasks/get without the extension declared got -32021 naming it in data.requiredCapabilities');
    return violated(`tasks/get without the extension declared got ${outcome(ex)}`, [evidence('tasks/get of a real task, extension not declared', ex, { expected: { error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } } })]);
  },
});

/** A request refused as the extension asks of a non-declaring client: -32021 naming it in data.requiredCapabilities. */
function namesMissingExtension(ex: Exchange | undefined): boolean {
  const data = errorOf(ex)?.data;
  return errorCode(ex) === -32021 && isObj(data) && isObj(data.requiredCapabilities) && isObj(data.requiredCapabilities.extensions) && TASKS_EXTENSION in data.requiredCapabilities.extensions;
}

// TB-15, and the SEP's Error Handling list: "Servers MUST return this error [-32021] for non-declaring
// clients issuing tasks/get, tasks/update, and tasks/cancel requests." tasks/get is
// tasks.modern-get-undeclared; this one judges the other two, sent for the same real task.
const undeclaredUpdateCancelCheck = check(modernTasksScenario, {
  id: 'tasks.modern-update-cancel-undeclared',
  title: 'tasks/update and tasks/cancel of a real task by requests that do not declare the tasks extension get -32021 naming the extension',
  requirements: ['TB-15', 'EX-03'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const pairs: [string, Exchange | undefined][] = [['tasks/update', obs.updateUndeclared], ['tasks/cancel', obs.cancelUndeclared]];
    const sent = pairs.filter((x): x is [string, Exchange] => x[1] !== undefined);
    if (sent.length === 0) return obs.main ? untestable('no second task was created to update and cancel without the extension') : noModernTask(obs);
    const answered = sent.filter(([, ex]) => !ex.aborted && !ex.timedOut);
    if (answered.length === 0) return untestable(sent.map(([m, ex]) => `${m} without the extension got ${outcome(ex)}`).join('; '));
    const bad = answered.filter(([, ex]) => !namesMissingExtension(ex));
    if (bad.length) {
      return violated(
        bad.map(([m, ex]) => `${m} without the extension declared got ${outcome(ex)}`).join('; '),
        bad.map(([m, ex]) => evidence(`${m} of a real task, extension not declared`, ex, { expected: { error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } } })),
      );
    }
    return holds(`${answered.map(([m]) => m).join(' and ')} without the extension declared got -32021 naming it in data.requiredCapabilities`);
  },
});

// SEP-2663, protocol-version table (its row for the new protocol version, named 2026-06-30 there): "`tasks/result` is
// removed; clients calling it **MUST** receive `-32601` (Method Not Found)." tasks/list is removed too
// (the 2026-07-28 changelog: the extension "removes `tasks/list`"), so it is an unknown method (VN-07).
/** A removed 2025-11-25 method, asked for declaring the extension, must be unknown. */
function removedMethodJudge(method: 'tasks/result' | 'tasks/list', ex: Exchange | undefined): Judgement {
  if (!ex || ex.aborted || ex.timedOut) return untestable(`${method} got ${ex ? outcome(ex) : 'no answer'}`);
  if (errorCode(ex) === -32601) return holds(`${method} declaring the extension: -32601`);
  return violated(`${method} declaring the extension got ${outcome(ex)}, not -32601: the 2025-11-25 method is still served (or refused as if it existed)`, [evidence(method, ex, { expected: { error: { code: -32601 } } })]);
}

const noTasksResultCheck = check(modernTasksScenario, {
  id: 'tasks.modern-no-tasks-result',
  title: 'tasks/result, removed by the tasks extension, is refused with -32601 (method not found) even from a request that declares the extension',
  requirements: ['VN-07'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge: (obs) => removedMethodJudge('tasks/result', obs.removed.result),
});

const noTasksListCheck = check(modernTasksScenario, {
  id: 'tasks.modern-no-tasks-list',
  title: 'tasks/list, removed by the tasks extension, is refused with -32601 (method not found) even from a request that declares the extension',
  requirements: ['VN-07'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge: (obs) => removedMethodJudge('tasks/list', obs.removed.list),
});

// No sentence of SEP-2663 or of the extension's text forbids the key outright, so this is a warning where
// the official suite (tasks-no-related-task-meta-on-inlined-result) fails: the extension dropped the
// 2025-11-25 related-task metadata (neither its schema nor 2026-07-28's defines the key) because a
// DetailedTask names its task at its root; a result inlined there that still carries it is the
// 2025-11-25 tasks/result answer served under the new flow, and a client reading it by the extension
// gets a key it has no definition for.
const noRelatedTaskMetaCheck = check(modernTasksScenario, {
  id: 'tasks.modern-no-related-task-meta',
  title: `a completed task's result inlined in tasks/get does not carry the 2025-11-25 _meta["${RELATED_TASK}"] (the DetailedTask names its task at its root)`,
  requirements: ['TB-08'],
  level: 'SHOULD',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const inlined = [obs.main, obs.isError?.run, obs.cancelled?.run].flatMap((r) => r?.polls ?? []).filter((ex) => isObj(resultOf(ex)?.result));
    if (inlined.length === 0) return obs.main ? untestable(unsettled(obs.main) ?? 'no tasks/get answer carried a completed result') : noModernTask(obs);
    const offenders = inlined.filter((ex) => {
      const meta = (resultOf(ex)!.result as Obj)._meta;
      return isObj(meta) && RELATED_TASK in meta;
    });
    if (offenders.length) {
      return violated(
        `${offenders.length} of ${inlined.length} results inlined in tasks/get carry _meta["${RELATED_TASK}"], the 2025-11-25 tasks/result key the extension removed`,
        firstOffenders(offenders).map((ex) => evidence(`tasks/get of task ${String(resultOf(ex)!.taskId)}`, ex, { pointer: `/result/result/_meta/${RELATED_TASK.replace('/', '~1')}`, expected: 'absent' })),
      );
    }
    return holds(`${inlined.length} result(s) inlined in tasks/get, none with the related-task key`);
  },
});

// SEP-2663, protocol-version table: "The `task` parameter on `CallToolRequest` is removed; servers
// **MUST** ignore it (treat the field as unknown) rather than using it as an opt-in." Judged on a call
// the server had answered without a task: made again with params.task, it must be answered the same
// way, neither refused nor turned into a task (the only difference between the two requests is the
// field the server must treat as unknown).
const legacyTaskParamCheck = check(modernTasksScenario, {
  id: 'tasks.modern-legacy-task-param',
  title: 'the 2025-11-25 params.task on a tools/call the server answers without a task is ignored: a result again, neither an error nor a task',
  requirements: ['TB-02'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const l = obs.legacyParam;
    if (!l) return obs.probes.length ? untestable('no tool call was answered with a plain, successful result to repeat with params.task') : noModernTask(obs);
    const ex = l.withTask;
    if (ex.aborted || ex.timedOut) return untestable(`${l.tool} with params.task got ${outcome(ex)}`);
    const r = resultOf(ex);
    const expected = 'a result, as without params.task: neither an error nor a task';
    if (!r) return violated(`${l.tool} with params.task got ${outcome(ex)}, though the same call without it got a result: the field was not ignored`, [evidence(`${l.tool} without params.task`, l.plain), evidence(`${l.tool} with params.task`, ex, { expected })]);
    if (r.resultType === 'task' || typeof r.taskId === 'string') return violated(`${l.tool} with params.task got a task, though the same call without it got a result: params.task was taken as an opt-in`, [evidence(`${l.tool} without params.task`, l.plain), evidence(`${l.tool} with params.task`, ex, { expected })]);
    return holds(`${l.tool} with params.task: a result, as without it`);
  },
});

// SEP-2663, tasks/update: "A server MAY accept a partial set of responses (a strict subset of
// currently-outstanding keys); in that case the task remains in input_required until the remaining
// responses arrive" (TB-12), and a tasks/get of an input_required task MUST list all outstanding
// requests (TB-08). The ack may come before the change shows, so the answered key may still be listed;
// a partial set refused with an error is the server not accepting one (its MAY), so not judged.
const partialUpdateCheck = check(modernTasksScenario, {
  id: 'tasks.modern-partial-update',
  title: 'a tasks/update answering only some of an input_required task\'s requests leaves it input_required, still listing the unanswered ones',
  requirements: ['TB-12', 'TB-08'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge(obs) {
    const p = obs.partial;
    if (!p) return obs.main ? untestable(`no task asked for with elicitation declared waited for two inputs or more${obs.partialNone ? ` (${obs.partialNone})` : ''}`) : noModernTask(obs);
    if (errorOf(p.update)) return untestable(`tasks/update answering ${p.answered} of ${p.keys.join(', ')} got ${outcome(p.update)}: the server does not accept a partial set (it may refuse one)`);
    const after = resultOf(p.after);
    if (!after) return untestable(`tasks/get after the partial tasks/update got ${outcome(p.after)}`);
    const unanswered = p.keys.filter((k) => k !== p.answered);
    const listed = isObj(after.inputRequests) ? Object.keys(after.inputRequests) : [];
    const expected = { status: 'input_required', inputRequests: Object.fromEntries(unanswered.map((k) => [k, '...'])) };
    if (after.status === 'cancelled' || after.status === 'failed') return untestable(`the task ended ${String(after.status)} after the partial tasks/update`);
    if (after.status !== 'input_required') {
      return violated(`after answering ${p.answered} only, task ${String(p.run.taskId)} went ${JSON.stringify(after.status)} with ${unanswered.join(', ')} unanswered`, [evidence('tasks/get while waiting', p.waiting), evidence(`tasks/update answering ${p.answered}`, p.update), evidence('tasks/get after it', p.after, { pointer: '/result/status', expected })]);
    }
    const lost = unanswered.filter((k) => !listed.includes(k));
    if (lost.length) return violated(`after answering ${p.answered} only, tasks/get no longer lists the outstanding ${lost.join(', ')}`, [evidence('tasks/get after the partial tasks/update', p.after, { pointer: '/result/inputRequests', expected })]);
    return holds(`answering ${p.answered} of ${p.keys.length} requests left task ${String(p.run.taskId)} input_required with ${unanswered.join(', ')} listed${p.restAfter ? `; the rest answered, tasks/get says ${String(resultOf(p.restAfter)?.status ?? outcome(p.restAfter))}` : ''}`);
  },
});

// SEP-2663, Streamable HTTP: "When tasks/get, tasks/update, or tasks/cancel is sent over the Streamable
// HTTP transport, the client MUST set the Mcp-Name header ... to the value of params.taskId" (TB-19);
// mcpspec's HTTP client does (with Mcp-Method), so a server that refuses those headers as a mismatch
// (-32020, HM-08) refuses every conformant client's task requests.
const routingHeadersCheck = check(modernTasksScenario, {
  id: 'tasks.modern-routing-headers',
  title: 'tasks/get, tasks/update and tasks/cancel of a real task sent over Streamable HTTP with Mcp-Method and Mcp-Name equal to params.taskId are not refused as a header mismatch (-32020)',
  requirements: ['TB-19', 'HM-08'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: { ...MODERN_REQ, transports: ['http'] },
  spec: TASKS_EXT,
  judge(obs) {
    const sent = [
      ...[obs.main, obs.isError?.run, obs.cancelled?.run].flatMap((r) => (r?.polls ?? []).map((ex) => ({ method: 'tasks/get', taskId: r!.taskId, ex }))),
      ...(obs.update ? [{ method: 'tasks/update', taskId: obs.cancelled?.run.taskId, ex: obs.update }] : []),
      ...(obs.cancelled?.cancel ? [{ method: 'tasks/cancel', taskId: obs.cancelled.run.taskId, ex: obs.cancelled.cancel }] : []),
    ].filter((s) => !s.ex.aborted && !s.ex.timedOut);
    if (sent.length === 0) return obs.main ? untestable('no tasks/get, tasks/update or tasks/cancel of a real task was answered') : noModernTask(obs);
    return every(sent, {
      none: 'no task request was answered',
      offends: (s) => errorCode(s.ex) === -32020,
      violated: (bad, all) => `${bad.length} of ${all.length} task requests carrying Mcp-Method and Mcp-Name (the taskId) got -32020; first: ${bad[0].method}: ${outcome(bad[0].ex)}`,
      evidence: (s) => evidence(`${s.method} of task ${String(s.taskId)} (Mcp-Name: the taskId)`, s.ex, { expected: 'served: the headers match the body' }),
      holds: (all) => `${all.length} task requests with Mcp-Method and Mcp-Name (the taskId) headers, none refused as a header mismatch`,
    });
  },
});

/** When each modern task was asked for (mcpspec's clock, never later than the server's createdAt) and the shortest ttlMs it was given (null: unlimited). */
function taskLifetimes(exchanges: Exchange[]): Map<string, { askedAt: number; ttlMs: number | null }> {
  const tasks = new Map<string, { askedAt: number; ttlMs: number | null }>();
  for (const ex of [...exchanges].sort((a, b) => a.startedAt - b.startedAt)) {
    const r = resultOf(ex);
    if (!r || typeof r.taskId !== 'string' || (r.ttlMs !== null && typeof r.ttlMs !== 'number')) continue;
    const known = tasks.get(r.taskId);
    if (ex.method === 'tools/call' && r.resultType === 'task' && !known) tasks.set(r.taskId, { askedAt: ex.startedAt, ttlMs: r.ttlMs as number | null });
    // The ttlMs may change (TB-10): judging by the shortest one never holds a server to a longer one.
    else if (ex.method === 'tasks/get' && known && typeof r.ttlMs === 'number') known.ttlMs = known.ttlMs === null ? r.ttlMs : Math.min(known.ttlMs, r.ttlMs);
  }
  return tasks;
}

const keptForTtlOracle = oracle({
  id: 'tasks.modern-kept-for-ttl',
  title: 'a task stays readable for its ttlMs: no tasks/get sent before its time to live ran out is answered -32602 (unknown task)',
  requirements: ['TB-10', 'TB-15'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge({ exchanges, deliberate }) {
    const tasks = taskLifetimes(exchanges);
    if (tasks.size === 0) return untestable('no task was created');
    // Deliberately invalid reads (without the extension declared, TB-15) are judged elsewhere.
    const reads = exchanges.filter((ex) => ex.method === 'tasks/get' && !ex.aborted && !ex.timedOut && !deliberate(ex)).flatMap((ex) => {
      const id = sentRequest(ex)?.params?.taskId;
      const task = typeof id === 'string' ? tasks.get(id) : undefined;
      // Conservative on both ends: the server created the task after mcpspec asked for it, and read
      // the task before its answer came back, so a slow link or a loaded machine never counts against it.
      const within = task && (task.ttlMs === null || ex.startedAt + ex.elapsedMs < task.askedAt + task.ttlMs);
      return task && within ? [{ id: id as string, ex }] : [];
    });
    return every(reads, {
      none: `no tasks/get of the ${tasks.size} task(s) created was sent within their ttlMs`,
      offends: (r) => errorCode(r.ex) === -32602,
      violated: (lost, all) => `${lost.length} of ${all.length} reads within the task's ttlMs got -32602; first: task ${lost[0].id}`,
      evidence: (r) => evidence(`tasks/get ${r.id}`, r.ex, { expected: 'the task, readable until its ttlMs runs out' }),
      holds: (all) => `${all.length} reads of ${tasks.size} task(s) within their ttlMs, none answered as unknown`,
    });
  },
});

// TB-11: an inputRequests key names one request for the task's whole lifetime. Over every tasks/get that
// listed inputRequests, the same key of the same task must always carry the same request (a repeat is the
// same outstanding request; another request under it is the rule broken).
const inputKeysStableOracle = oracle({
  id: 'tasks.modern-input-keys-stable',
  title: 'an inputRequests key of a task always names the same request: no two different requests under one key on its tasks/get polls',
  requirements: ['TB-11'],
  level: 'MUST',
  versions: MODERN_ONLY,
  requires: MODERN_REQ,
  spec: TASKS_EXT,
  judge({ exchanges }) {
    const seen = new Map<string, { request: string; ex: Exchange; polls: number }>();
    const clashes: { task: string; key: string; first: Exchange; ex: Exchange }[] = [];
    let polls = 0;
    for (const ex of exchanges) {
      if (ex.method !== 'tasks/get') continue;
      const r = resultOf(ex);
      const task = sentRequest(ex)?.params?.taskId;
      if (!r || typeof task !== 'string' || !isObj(r.inputRequests)) continue;
      polls++;
      for (const [key, request] of Object.entries(r.inputRequests)) {
        const text = JSON.stringify(request);
        const had = seen.get(`${task}\u0000${key}`);
        if (!had) seen.set(`${task}\u0000${key}`, { request: text, ex, polls: 1 });
        else if (++had.polls && had.request !== text && !clashes.some((c) => c.task === task && c.key === key)) clashes.push({ task, key, first: had.ex, ex });
      }
    }
    if (polls === 0) return untestable('no tasks/get answered with inputRequests: no task asked for input');
    if (clashes.length) {
      return violated(`${clashes.length} inputRequests key(s) named two different requests; first: task ${clashes[0].task} key "${clashes[0].key}"`, firstOffenders(clashes).flatMap((c) => [evidence(`tasks/get ${c.task}: "${c.key}" first`, c.first), evidence(`tasks/get ${c.task}: "${c.key}" later, another request`, c.ex, { pointer: `/result/inputRequests/${c.key}`, expected: 'the same request as before under this key' })]));
    }
    // A key shown once cannot have changed: only keys seen on two polls or more are judged.
    const repeated = [...seen.values()].filter((k) => k.polls > 1).length;
    if (repeated === 0) return untestable(`no inputRequests key was shown on two tasks/get polls (${polls} poll(s) with input requests): nothing to compare`);
    return holds(`${repeated} inputRequests key(s) shown on two polls or more (${polls} poll(s)), each naming one request throughout`);
  },
});

export const tasksChecks = [
  ...legacyChecks, ...sharedOracles, ...modernChecks, notifyCheck, undeclaredGetCheck, keptForTtlOracle,
  undeclaredUpdateCancelCheck,
  noTasksResultCheck, noTasksListCheck,
  noRelatedTaskMetaCheck, legacyTaskParamCheck, routingHeadersCheck, partialUpdateCheck, inputKeysStableOracle,
];
