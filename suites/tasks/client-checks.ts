// client.task-*, client.legacy-task-*: a client under test against the task scenarios of
// client-scenarios.ts beside it: it polls to a terminal status at the interval asked (TB-09,
// TA-09..TA-11), answers an input_required task with tasks/update (TB-07, TB-11), and task-augments
// no call to a legacy server that declared no tasks (TA-01, TA-02; on the plain legacy server of
// lifecycle/client-scenarios.ts).

import { isObj } from '../../protocol/jsonrpc.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { every, firstOffenders } from '../kit/judge.js';
import type { ClientObs } from '../client/client-run.js';
import { ev, isRequest, paramsOf, type Msg } from '../client/client-reading.js';
import { modernMetaOf } from '../client/scripted-server.js';
import { legacyServer } from '../lifecycle/client-scenarios.js';
import { legacyTasksServer, TASKS_EXTENSION, tasksServer, type TaskLog } from './client-scenarios.js';

// The tasks extension (SEP-2663) has no page in the core specification: its rules are cited by requirement ID.
const SPEC_TASKS = SPEC.basic26;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * How much sooner than the interval a poll may arrive. Gaps run arrival to arrival: a poll is stamped
 * before its answer is written, so a client that waits the interval after the answer always shows at
 * least the interval; the tolerance is for one that times it from its own previous send, whose gap
 * mcpspec's stamping jitter can shorten. Fixed, not a fraction: the check is about ignoring the interval.
 */
export const POLL_TOLERANCE_MS = 100;
const early = (gap: number, intervalMs: number) => gap < intervalMs - POLL_TOLERANCE_MS;

const taskRequests = (o: ClientObs, t: TaskLog, method: string) => o.received.filter((r) => isRequest(r.message) && r.message.method === method && paramsOf(r).taskId === t.taskId);

const taskPolls = check(tasksServer, {
  id: 'client.task-polls',
  title: 'after CreateTaskResult the client polls tasks/get until a terminal status, and not after it',
  requirements: ['TB-09', 'TB-04'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION] },
  spec: SPEC_TASKS,
  judge(o) {
    if (o.tasks.length === 0) return untestable('the client called no tool while declaring the tasks extension, so no task was created');
    const bad: Evidence[] = [];
    for (const t of o.tasks) {
      const terminal = t.polls.findIndex((p) => TERMINAL.has(p.status));
      const cancelled = taskRequests(o, t, 'tasks/cancel').length > 0;
      if (terminal < 0 && !cancelled && !o.exit.timedOut) bad.push({ what: `task ${t.taskId}: the client stopped polling at status ${t.polls.at(-1)?.status ?? 'working (never polled)'} without cancelling`, actual: t.polls.map((p) => p.status) });
      if (terminal >= 0 && t.polls.length > terminal + 1) bad.push({ what: `task ${t.taskId}: ${t.polls.length - terminal - 1} tasks/get after the terminal status ${t.polls[terminal].status}`, actual: t.polls.map((p) => p.status), seq: t.polls.slice(terminal + 1).map((p) => p.seq) });
    }
    if (bad.length) return violated(`${bad.length} task(s) polled wrongly; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${o.tasks.length} task(s) polled to a terminal status (${o.tasks.map((t) => t.polls.map((p) => p.status).join(' > ')).join('; ')}), none after it`);
  },
});

const taskPollInterval = check(tasksServer, {
  id: 'client.task-poll-interval',
  title: 'the client waits pollIntervalMs between tasks/get polls of one task',
  requirements: ['TB-09'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION] },
  spec: SPEC_TASKS,
  judge(o) {
    // Only polling faster than asked is judged; slower is always fine.
    return every(o.tasks.flatMap((t) => t.polls.slice(1).map((p, i) => ({ t, gap: p.at - t.polls[i].at, seq: [t.polls[i].seq, p.seq] }))), {
      none: o.tasks.length ? 'no task was polled twice' : 'no task was created',
      offends: (p) => early(p.gap, p.t.pollIntervalMs),
      violated: (fast, pairs) => `${fast.length} of ${pairs.length} polls came sooner than pollIntervalMs ${fast[0].t.pollIntervalMs} ms (first gap ${fast[0].gap} ms)`,
      evidence: (p) => ({ what: `tasks/get of ${p.t.taskId} ${p.gap} ms after the previous one`, expected: `>= ${p.t.pollIntervalMs} ms (${POLL_TOLERANCE_MS} ms allowed)`, seq: p.seq }),
      holds: (pairs) => `${pairs.length} poll gaps, none more than ${POLL_TOLERANCE_MS} ms short of pollIntervalMs (shortest ${Math.min(...pairs.map((p) => p.gap))} ms)`,
    });
  },
});

const taskInput = check(tasksServer, {
  id: 'client.task-input',
  title: 'an input_required task is answered with tasks/update carrying inputResponses for exactly its inputRequests',
  requirements: ['TB-07', 'TB-11', 'IR-05'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION], anyCapability: ['elicitation', 'sampling', 'roots'] },
  spec: SPEC_TASKS,
  judge(o) {
    const asked = o.tasks.filter((t) => t.inputKeys.length && t.polls.some((p) => p.status === 'input_required'));
    if (asked.length === 0) return untestable('no polled task reached input_required (no task, or the client declared no input capability)');
    const doc = loadSchema('2026-07-28');
    const resultDef: Record<string, string> = { name: 'ElicitResult', draft: 'CreateMessageResult', roots: 'ListRootsResult' };
    const bad: Evidence[] = [];
    for (const t of asked) {
      const update = taskRequests(o, t, 'tasks/update')[0];
      if (!update) {
        bad.push({ what: `task ${t.taskId} asked for input (${t.inputKeys.join(', ')}) and got no tasks/update`, actual: t.polls.map((p) => p.status) });
        continue;
      }
      const responses = paramsOf(update).inputResponses;
      const keys = isObj(responses) ? Object.keys(responses).sort() : [];
      if (JSON.stringify(keys) !== JSON.stringify([...t.inputKeys].sort())) bad.push(ev(`tasks/update answers keys ${keys.join(', ') || '(none)'}`, update, { expected: t.inputKeys }));
      else for (const k of keys) if (!doc.validator(resultDef[k])((responses as Msg)[k])) bad.push(ev(`inputResponses.${k} is not a valid ${resultDef[k]}`, update, { pointer: `/params/inputResponses/${k}` }));
    }
    if (bad.length) return violated(`${bad.length} problem(s) answering input_required tasks; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${asked.length} input_required task(s) answered with tasks/update`);
  },
});

const legacyTaskPolls = check(legacyTasksServer, {
  id: 'client.legacy-task-polls',
  title: '2025-11-25 tasks: the client polls tasks/get no faster than pollInterval until a terminal status (or waits in tasks/result), then fetches the result with tasks/result',
  requirements: ['TA-09', 'TA-10', 'TA-11'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    if (o.tasks.length === 0) return untestable('the client did not task-augment a tools/call although the server declared tasks.requests.tools.call');
    const bad: Evidence[] = [];
    for (const t of o.tasks) {
      const got = o.received.filter((r) => isRequest(r.message) && r.message.method === 'tasks/result' && paramsOf(r).taskId === t.taskId);
      const gets = t.polls.filter((p) => o.received.some((r) => r.seq === p.seq && isRequest(r.message) && r.message.method === 'tasks/get'));
      for (let i = 1; i < gets.length; i++) {
        const gap = gets[i].at - gets[i - 1].at;
        if (early(gap, t.pollInterval)) bad.push({ what: `task ${t.taskId}: tasks/get ${gap} ms after the previous one (pollInterval ${t.pollInterval} ms)`, seq: [gets[i - 1].seq, gets[i].seq] });
      }
      const terminal = gets.findIndex((p) => TERMINAL.has(p.status));
      if (terminal >= 0 && gets.length > terminal + 1) bad.push({ what: `task ${t.taskId}: tasks/get after the terminal status`, seq: gets.slice(terminal + 1).map((p) => p.seq) });
      if (got.length === 0 && !o.exit.timedOut) bad.push({ what: `task ${t.taskId}: the client never fetched the result with tasks/result`, actual: t.polls.map((p) => p.status) });
    }
    if (bad.length) return violated(`${bad.length} problem(s) following 2025-11-25 tasks; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${o.tasks.length} task(s) followed to their result (${o.tasks.map((t) => t.polls.map((p) => p.status).join(' > ')).join('; ')})`);
  },
});

const legacyTaskUnasked = check(legacyServer, {
  id: 'client.legacy-task-unasked',
  title: '2025-11-25 tasks: the client does not task-augment tools/call when the server did not declare tasks.requests.tools.call',
  requirements: ['TA-02', 'TA-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const calls = o.received.filter((r) => isRequest(r.message) && r.message.method === 'tools/call' && !modernMetaOf(r.message.params));
    if (calls.length === 0) return untestable('the client called no tool on the legacy server');
    const augmented = calls.filter((r) => 'task' in paramsOf(r));
    if (augmented.length) return violated(`${augmented.length} of ${calls.length} tools/call requests are task-augmented although the server declared no tasks capability`, augmented.slice(0, 2).map((r) => ev('task-augmented tools/call', r)));
    return holds(`${calls.length} tools/call request(s), none task-augmented`);
  },
});

export const tasksClientChecks = [taskPolls, taskPollInterval, taskInput, legacyTaskPolls, legacyTaskUnasked];
