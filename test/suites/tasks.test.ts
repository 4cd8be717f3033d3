import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import { skipReason } from '../../suites/kit/check.js';
import { guessable } from '../../suites/tasks/checks.js';
import { idsOfRun, inArea } from '../helpers/catalogue-counts.js';
import { runReference } from './run-reference.js';

// Tasks in both flavours on the reference fixture, beyond what faults.test.ts proves (there each fault
// is judged in one version): the faults of the checks that apply to both flavours also fail in the
// legacy one; a server whose tasks take seconds gets no failure; polling stops at its bound and says so.
const TASK_CHECKS = CHECKS.filter((c) => c.id.startsWith('tasks.') || c.id.startsWith('subscriptions.') || c.id === 'wire.schema' || c.id.startsWith('tools.'));

describe('tasks', () => {
  for (const fault of ['tasks.transitions', 'tasks.ids']) {
    it(`--fault ${fault} fails ${fault} in the legacy flavour too (2025-11-25, stdio)`, async () => {
      const run = await runReference('stdio', '2025-11-25', [fault], { checks: TASK_CHECKS });
      const bad = run.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error').map((c) => c.id);
      expect(bad).toEqual([fault]);
    });
  }

  it('a server whose tasks take seconds passes every tasks check, and the time goes to the tasks, not to sleeps', async () => {
    const env = { env: { set: { MCPSPEC_REFERENCE_TASK_MS: '5000' } } };
    const [legacy, modern] = await Promise.all([
      runReference('stdio', '2025-11-25', [], { checks: TASK_CHECKS, ...env }),
      runReference('stdio', '2026-07-28', [], { checks: TASK_CHECKS, ...env }),
    ]);
    for (const [run, version] of [[legacy, '2025-11-25'], [modern, '2026-07-28']] as const) {
      const tasks = run.checks.filter((c) => c.id.startsWith('tasks.'));
      expect(tasks.map((c) => c.id).sort()).toEqual(idsOfRun('server', version, 'stdio', inArea('tasks')).sort());
      expect(run.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status}: ${c.message}`)).toEqual([]);
    }
    // The fixture suggests pollInterval = task time / 3, at most 1 s: a 5 s task is polled a handful of times.
    const polls = legacy.recording.events().filter((e) => e.dir === 'out' && (e.message as { method?: string } | undefined)?.method === 'tasks/get').length;
    expect(polls).toBeGreaterThan(2);
    expect(polls).toBeLessThan(20);
  });

  it('polling stops at its bound (the tool timeout): the checks that needed the end say so, none fails', async () => {
    const run = await runReference('stdio', '2025-11-25', [], { checks: TASK_CHECKS.filter((c) => c.id.startsWith('tasks.')), timeoutMs: 1500, env: { set: { MCPSPEC_REFERENCE_TASK_MS: '5000' } } });
    const status = Object.fromEntries(run.checks.map((c) => [c.id, c]));
    expect(run.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(status['tasks.cancel-terminal'].status).toBe('untestable');
    expect(status['tasks.cancel-terminal'].message).toMatch(/polling reached its bound \(1500 ms/);
    expect(status['tasks.create'].status).toBe('pass');
  });

  it('a server without tasks: every tasks check is a skip with its reason, and the task scenarios do not run', () => {
    for (const c of CHECKS.filter((x) => x.id.startsWith('tasks.') && x.requires.capabilities)) expect(skipReason(c, { tools: {} })).toBe('the server does not declare the tasks capability');
    for (const c of CHECKS.filter((x) => x.id.startsWith('tasks.modern-'))) expect(skipReason(c, { tools: {} })).toBe('the server does not declare the io.modelcontextprotocol/tasks extension');
    // The two oracles of both flavours judge the skip themselves (their requirement differs by era).
    const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: { tools: {} } } as const;
    const none = { exchanges: [], events: [], version: '2025-11-25', transport: 'stdio', deliberate: () => false } as const;
    for (const id of ['tasks.transitions', 'tasks.ids']) expect(CHECKS.find((c) => c.id === id)!.judge(none, ctx).outcome).toBe('skip');
    // tasks.only-requested is judged all the same: a server that declares no tasks creates none (TA-04).
    const onlyRequested = CHECKS.find((c) => c.id === 'tasks.only-requested')!;
    expect(skipReason(onlyRequested, { tools: {} })).toBeUndefined();
    const call = (result: Record<string, unknown>) => ({ id: 1, method: 'tools/call', request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } }, response: { jsonrpc: '2.0', id: 1, result }, seq: [1, 2], elapsedMs: 1, startedAt: 0, timeoutMs: 1000 });
    const judged = (result: Record<string, unknown>) => onlyRequested.judge({ ...none, exchanges: [call(result)] } as never, ctx).outcome;
    expect(judged({ task: { taskId: 't', status: 'working' } })).toBe('violated');
    expect(judged({ content: [] })).toBe('holds');
  });

  it('tasks.initial-working judges the CreateTaskResult status alone: a later lastUpdatedAt does not excuse input_required', () => {
    const c = CHECKS.find((x) => x.id === 'tasks.initial-working')!;
    const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: { tasks: {} } } as const;
    const created = (status: string, lastUpdatedAt: string) => ({
      request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {}, task: {} } },
      response: { jsonrpc: '2.0', id: 1, result: { task: { taskId: 'a1b2c3d4e5f6', status, createdAt: '2026-11-30T10:00:00.000Z', lastUpdatedAt, ttl: null } } },
      messages: [], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1, 2],
    });
    const run = (...exchanges: ReturnType<typeof created>[]) => c.judge({ exchanges, events: [], version: '2025-11-25', transport: 'stdio', deliberate: () => false }, ctx).outcome;
    expect(run(created('working', '2026-11-30T10:00:00.000Z'))).toBe('holds');
    expect(run(created('input_required', '2026-11-30T10:00:00.000Z'))).toBe('violated');
    expect(run(created('input_required', '2026-11-30T10:00:00.001Z'))).toBe('violated');
    expect(run(created('completed', '2026-11-30T10:00:02.000Z'))).toBe('violated');
    expect(run()).toBe('untestable');
  });

  it('guessable ids: counters and short ids are caught, random ones are not', () => {
    expect(guessable(['report-task-1', 'report-task-2', 'report-task-3'])).toMatch(/shared prefix "report-task-" plus a counter/);
    expect(guessable(['17', '18'])).toMatch(/shorter than 8/);
    expect(guessable(['100000017', '100000018'])).toMatch(/counter|numeric/);
    expect(guessable(['abc', 'f7ce51e4-6a29-4054-8e33-187f1a578229'])).toMatch(/shorter than 8/);
    expect(guessable(['f7ce51e4-6a29-4054-8e33-187f1a578229', '6e332385-f56d-4396-990e-2c6c2cbed56f'])).toBeUndefined();
    expect(guessable(['V1StGXR8_Z5jdHi6B-myT', 'Uakgb_J5m9g-0JDMbcJqLJ'])).toBeUndefined();
  });
});

describe('tasks.modern-create: a task labelled with another resultType (RT-07)', () => {
  const judgeCreate = (result: Record<string, unknown>) => {
    const ex = { id: 1, method: 'tools/call', request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'research' } }, response: { jsonrpc: '2.0', id: 1, result }, messages: [], timedOut: false, seq: [3] };
    const obs = { tools: [{ name: 'research' }], notCalled: [], probes: [{ tool: 'research', ex }], undeclared: [], unknown: {} };
    return CHECKS.find((c) => c.id === 'tasks.modern-create')!.judge(obs as never, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });
  };
  const task = { taskId: 't-1', status: 'working', createdAt: '2026-12-03T00:00:00Z', lastUpdatedAt: '2026-12-03T00:00:00Z', ttlMs: 60000 };
  it('fails when the CreateTaskResult says resultType "complete"', () => {
    expect(judgeCreate({ resultType: 'complete', ...task })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not "task"') });
  });
  it('fails the same with an empty content array beside the task (the 2.x SDK sends content: [] on tasks)', () => {
    expect(judgeCreate({ resultType: 'complete', content: [], ...task })).toMatchObject({ outcome: 'violated' });
  });
  it('does not mistake a finished call with content and task-like fields for a task', () => {
    expect(judgeCreate({ resultType: 'complete', content: [{ type: 'text', text: 'done' }], ...task })).not.toMatchObject({ outcome: 'violated' });
  });
  it('does not mistake a finished call that has content for a task', () => {
    expect(judgeCreate({ resultType: 'complete', content: [], taskId: 'x', status: 'done' })).not.toMatchObject({ outcome: 'violated' });
  });
});

// Verdicts that must not follow timing: a fast task ending before a request arrives, answers arriving
// out of order over HTTP streams.
type Ex = { id: number; method: string; request: unknown; response: unknown; messages: unknown[]; timedOut: boolean; elapsedMs: number; startedAt: number; timeoutMs: number; seq: number[] };
let nextId = 1;
function ex(method: string, params: Record<string, unknown>, answer: { result: Record<string, unknown> } | { error: { code: number; message: string } }, seq: [number, number]): Ex {
  const id = nextId++;
  return { id, method, request: { jsonrpc: '2.0', id, method, params }, response: { jsonrpc: '2.0', id, ...answer }, messages: [], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq };
}
const stamps = { createdAt: '2026-12-05T00:00:00Z', lastUpdatedAt: '2026-12-05T00:00:00Z' };
const refused = (message: string) => ({ error: { code: -32603, message } });

describe('tasks.transitions: reports are compared in the order they were asked for, not the order they arrived in', () => {
  const c = CHECKS.find((x) => x.id === 'tasks.transitions')!;
  const ctx = { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } as const;
  const task = (status: string) => ({ resultType: 'complete', taskId: 'c0ffee-task-1', status, ...stamps, ttlMs: 60000 });
  const get = (status: string, sent: number, arrived: number) => ex('tasks/get', { taskId: 'c0ffee-task-1' }, { result: task(status) }, [sent, arrived]);
  const note = (status: string, seq: number) => ({ seq, t: seq, dir: 'in', channel: 'http', raw: '', message: { jsonrpc: '2.0', method: 'notifications/tasks', params: task(status) } });
  const judge = (exchanges: Ex[], events: ReturnType<typeof note>[] = []) => c.judge({ exchanges, events, version: '2026-07-28', transport: 'http', deliberate: () => false } as never, ctx);

  it('a working answer asked for before the completed notification arrived, but arriving after it, is no change', () => {
    expect(judge([get('working', 3, 6)], [note('completed', 5)]).outcome).toBe('holds');
  });
  it('a working answer asked for after a completed report arrived is a change', () => {
    expect(judge([get('completed', 3, 4), get('working', 7, 8)])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('completed (tasks/get) then working (tasks/get)') });
    expect(judge([get('working', 7, 8)], [note('completed', 5)]).outcome).toBe('violated');
  });
  it('two different terminal statuses are a change whatever order they were asked for and arrived in', () => {
    expect(judge([get('completed', 3, 8), get('failed', 4, 6)]).outcome).toBe('violated');
    expect(judge([get('completed', 3, 4), get('completed', 5, 6)]).outcome).toBe('holds');
  });
});

describe('tasks.cancel: a task that ended before the cancel arrived is not judged, whatever error the cancel got', () => {
  const c = CHECKS.find((x) => x.id === 'tasks.cancel')!;
  const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: { tasks: { cancel: {}, requests: { tools: { call: {} } } } } } as const;
  const task = (status: string) => ({ taskId: 'c0ffee-task-2', status, ...stamps, ttl: 60000 });
  const judge = (cancel: Ex, afterStatus: string) => {
    const run = { tool: 't', args: {}, create: ex('tools/call', { name: 't', task: {} }, { result: { task: task('working') } }, [1, 2]), taskId: 'c0ffee-task-2', polls: [] };
    const after = ex('tasks/get', { taskId: 'c0ffee-task-2' }, { result: task(afterStatus) }, [5, 6]);
    const obs = { declared: { list: false, cancel: true, toolsCall: true }, tools: [], notCalled: [], unknown: {}, cancelled: { run, cancel, after } };
    return c.judge(obs as never, ctx);
  };
  const cancel = (answer: Parameters<typeof ex>[2]) => ex('tasks/cancel', { taskId: 'c0ffee-task-2' }, answer, [3, 4]);

  it('an error other than -32602 is excused when the task shows completed right after', () => {
    expect(judge(cancel(refused('already done')), 'completed')).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('may have ended (completed)') });
    expect(judge(cancel({ error: { code: -32602, message: 'terminal' } }), 'failed').outcome).toBe('untestable');
  });
  it('an answer reporting the task already completed is excused too (tasks.cancel-terminal judges it)', () => {
    expect(judge(cancel({ result: task('completed') }), 'completed').outcome).toBe('untestable');
  });
  it('an error for a task still working (or cancelled) right after is a violation', () => {
    expect(judge(cancel(refused('no')), 'working').outcome).toBe('violated');
    expect(judge(cancel(refused('no')), 'cancelled').outcome).toBe('violated');
  });
  it('an answer with the task still working is a violation; cancelled and staying so holds', () => {
    expect(judge(cancel({ result: task('working') }), 'cancelled').outcome).toBe('violated');
    expect(judge(cancel({ result: task('cancelled') }), 'cancelled').outcome).toBe('holds');
  });
});

describe('tasks.modern-acks: an error for tasks/update or tasks/cancel of a task that may have ended is not judged', () => {
  const c = CHECKS.find((x) => x.id === 'tasks.modern-acks')!;
  const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } as const;
  const task = (status: string) => ({ taskId: 'c0ffee-task-3', status, ...stamps, ttlMs: 60000 });
  const ack = { result: { resultType: 'complete' } };
  const judge = (update: Parameters<typeof ex>[2], afterUpdate: string, cancel: Parameters<typeof ex>[2], after: string) => {
    const get = (status: string, seq: [number, number]) => ex('tasks/get', { taskId: 'c0ffee-task-3' }, { result: { resultType: 'complete', ...task(status) } }, seq);
    const run = { tool: 't', args: {}, create: ex('tools/call', { name: 't' }, { result: { resultType: 'task', ...task('working') } }, [1, 2]), taskId: 'c0ffee-task-3', polls: [] };
    const obs = {
      tools: [], notCalled: [], probes: [], undeclared: [], unknown: {},
      update: ex('tasks/update', { taskId: 'c0ffee-task-3' }, update, [3, 4]), afterUpdate: get(afterUpdate, [5, 6]),
      cancelled: { run, cancel: ex('tasks/cancel', { taskId: 'c0ffee-task-3' }, cancel, [7, 8]), after: get(after, [9, 10]) },
    };
    return c.judge(obs as never, ctx);
  };

  it('both refused, the task completed before either: untestable, saying why', () => {
    expect(judge(refused('done'), 'completed', refused('done'), 'completed')).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('may have ended (completed)') });
  });
  it('update acknowledged while working, cancel refused after the task completed: holds on the update, the cancel not judged', () => {
    expect(judge(ack, 'working', refused('done'), 'completed')).toMatchObject({ outcome: 'holds', message: expect.stringContaining('not judged: tasks/cancel') });
  });
  it('an update refused while the task was still working is a violation, even if it completed later', () => {
    expect(judge(refused('no'), 'working', ack, 'completed').outcome).toBe('violated');
  });
  it('a cancel refused while the task worked on (or got cancelled) is a violation', () => {
    expect(judge(ack, 'working', refused('no'), 'working').outcome).toBe('violated');
    expect(judge(ack, 'working', refused('no'), 'cancelled').outcome).toBe('violated');
  });
  it('an ack that is not empty is a violation even for a finished task', () => {
    expect(judge(ack, 'completed', { result: { resultType: 'complete', status: 'completed' } }, 'completed').outcome).toBe('violated');
  });
  it('both acknowledged: holds', () => {
    expect(judge(ack, 'completed', ack, 'completed').outcome).toBe('holds');
  });
});

// The SEP-2663 refusals and edges (issue 31): each judge on hand-made observations.
describe('tasks extension refusals and edges (SEP-2663)', () => {
  const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } as const;
  const judge = (id: string, extra: Record<string, unknown>) => CHECKS.find((x) => x.id === id)!.judge({ tools: [], notCalled: [], probes: [], undeclared: [], unknown: {}, removed: {}, ...extra } as never, ctx);
  const missingCap = { error: { code: -32021, message: 'needs the extension', data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } };
  const task = (status: string, more: Record<string, unknown> = {}) => ({ taskId: 'c0ffee-task-4', status, ...stamps, ttlMs: 60000, ...more });
  const main = { tool: 't', args: {}, create: ex('tools/call', { name: 't' }, { result: { resultType: 'task', ...task('working') } }, [1, 2]), taskId: 'c0ffee-task-4', polls: [], settled: 'completed' };

  describe('tasks.modern-update-cancel-undeclared', () => {
    const both = (update: Parameters<typeof ex>[2], cancel: Parameters<typeof ex>[2]) =>
      judge('tasks.modern-update-cancel-undeclared', { main, updateUndeclared: ex('tasks/update', { taskId: 'c0ffee-task-4' }, update, [3, 4]), cancelUndeclared: ex('tasks/cancel', { taskId: 'c0ffee-task-4' }, cancel, [5, 6]) });
    it('both refused with -32021 naming the extension: holds', () => {
      expect(both(missingCap, missingCap).outcome).toBe('holds');
    });
    it('an ack, or -32021 without the extension named, is a violation naming the method', () => {
      expect(both({ result: { resultType: 'complete' } }, missingCap)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('tasks/update') });
      expect(both(missingCap, { error: { code: -32021, message: 'no' } })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('tasks/cancel') });
      expect(both(missingCap, { error: { code: -32602, message: 'unknown task' } }).outcome).toBe('violated');
    });
    it('without a second task: untestable', () => {
      expect(judge('tasks.modern-update-cancel-undeclared', { main }).outcome).toBe('untestable');
    });
  });

  describe('tasks.modern-no-tasks-result and tasks.modern-no-tasks-list', () => {
    const removed = (answer: Parameters<typeof ex>[2]) => ({ removed: { result: ex('tasks/result', { taskId: 'x' }, answer, [1, 2]), list: ex('tasks/list', {}, answer, [3, 4]) } });
    it('-32601 holds; -32602 (the method known, the id not) or a result is a violation', () => {
      for (const id of ['tasks.modern-no-tasks-result', 'tasks.modern-no-tasks-list']) {
        expect(judge(id, removed({ error: { code: -32601, message: 'Method not found' } })).outcome).toBe('holds');
        expect(judge(id, removed({ error: { code: -32602, message: 'Unknown task' } })).outcome).toBe('violated');
        expect(judge(id, removed({ result: { resultType: 'complete', tasks: [] } })).outcome).toBe('violated');
      }
    });
    it('no answer (timed out) is untestable', () => {
      const late = { ...ex('tasks/result', { taskId: 'x' }, { result: {} }, [1, 2]), response: undefined, timedOut: true };
      expect(judge('tasks.modern-no-tasks-result', { removed: { result: late } }).outcome).toBe('untestable');
    });
  });

  describe('tasks.modern-no-related-task-meta', () => {
    const withEnd = (result: Record<string, unknown>) => judge('tasks.modern-no-related-task-meta', { main: { ...main, polls: [ex('tasks/get', { taskId: 'c0ffee-task-4' }, { result: { resultType: 'complete', ...task('working') } }, [3, 4]), ex('tasks/get', { taskId: 'c0ffee-task-4' }, { result: { resultType: 'complete', ...task('completed', { result }) } }, [5, 6])] } });
    it('a result inlined with the 2025-11-25 related-task key is a violation pointing at it', () => {
      const j = withEnd({ content: [], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'c0ffee-task-4' } } });
      expect(j).toMatchObject({ outcome: 'violated', evidence: [{ pointer: '/result/result/_meta/io.modelcontextprotocol~1related-task' }] });
    });
    it('other _meta keys, or none, hold', () => {
      expect(withEnd({ content: [], _meta: { 'example.com/trace': 1 } }).outcome).toBe('holds');
      expect(withEnd({ content: [] }).outcome).toBe('holds');
    });
    it('no completed result seen: untestable', () => {
      expect(judge('tasks.modern-no-related-task-meta', { main: { ...main, polls: [] } }).outcome).toBe('untestable');
    });
  });

  describe('tasks.modern-routing-headers', () => {
    const httpCtx = { ...ctx, transport: 'http' } as const;
    const get = (answer: Parameters<typeof ex>[2]) => ex('tasks/get', { taskId: 'c0ffee-task-4' }, answer, [3, 4]);
    const withPolls = (...polls: Ex[]) => CHECKS.find((x) => x.id === 'tasks.modern-routing-headers')!.judge({ tools: [], notCalled: [], probes: [], undeclared: [], unknown: {}, removed: {}, main: { ...main, polls } } as never, httpCtx);
    it('-32020 on a tasks/get of a real task is a violation; other answers hold', () => {
      expect(withPolls(get({ result: { resultType: 'complete', ...task('working') } }), get({ error: { code: -32020, message: 'Mcp-Name header does not match params.name' } }))).toMatchObject({ outcome: 'violated', message: expect.stringMatching(/^1 of 2 /) });
      expect(withPolls(get({ result: { resultType: 'complete', ...task('completed', { result: { content: [] } }) } })).outcome).toBe('holds');
    });
    it('applies over Streamable HTTP only', () => {
      expect(CHECKS.find((x) => x.id === 'tasks.modern-routing-headers')!.requires.transports).toEqual(['http']);
    });
  });

  describe('tasks.modern-partial-update', () => {
    const q = { method: 'elicitation/create', params: { mode: 'form', message: 'q', requestedSchema: { type: 'object', properties: {} } } };
    const waiting = ex('tasks/get', { taskId: 'c0ffee-task-4' }, { result: { resultType: 'complete', ...task('input_required', { inputRequests: { a: q, b: q } }) } }, [3, 4]);
    const partial = (update: Parameters<typeof ex>[2], after: Record<string, unknown>) =>
      judge('tasks.modern-partial-update', { main, partial: { run: main, waiting, keys: ['a', 'b'], answered: 'a', update: ex('tasks/update', { taskId: 'c0ffee-task-4' }, update, [5, 6]), after: ex('tasks/get', { taskId: 'c0ffee-task-4' }, { result: { resultType: 'complete', ...after } }, [7, 8]) } });
    const ack = { result: { resultType: 'complete' } };
    it('still input_required listing the unanswered key holds, even if the answered one is still listed (the ack may come first)', () => {
      expect(partial(ack, task('input_required', { inputRequests: { b: q } })).outcome).toBe('holds');
      expect(partial(ack, task('input_required', { inputRequests: { a: q, b: q } })).outcome).toBe('holds');
    });
    it('working with a key unanswered, or the unanswered key no longer listed, is a violation', () => {
      expect(partial(ack, task('working'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('went "working" with b unanswered') });
      expect(partial(ack, task('input_required', { inputRequests: { a: q } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no longer lists the outstanding b') });
    });
    it('a partial set refused (the server MAY refuse one), or the task ended otherwise: untestable', () => {
      expect(partial({ error: { code: -32602, message: 'answer all' } }, task('input_required', { inputRequests: { a: q, b: q } })).outcome).toBe('untestable');
      expect(partial(ack, task('cancelled')).outcome).toBe('untestable');
    });
    it('no task waiting for two inputs: untestable, saying what the tasks did', () => {
      expect(judge('tasks.modern-partial-update', { main, partialNone: 'slow_report: completed' })).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('slow_report: completed') });
    });
  });

  describe('tasks.modern-legacy-task-param', () => {
    const plain = ex('tools/call', { name: 'echo' }, { result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] } }, [1, 2]);
    const again = (answer: Parameters<typeof ex>[2]) => judge('tasks.modern-legacy-task-param', { probes: [{ tool: 'echo', ex: plain }], legacyParam: { tool: 'echo', plain, withTask: ex('tools/call', { name: 'echo', task: { ttl: 60000 } }, answer, [3, 4]) } });
    it('a result again holds; an error or a task is a violation', () => {
      expect(again({ result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] } }).outcome).toBe('holds');
      expect(again({ error: { code: -32602, message: 'params.task is not supported' } })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not ignored') });
      expect(again({ result: { resultType: 'task', ...task('working') } })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('opt-in') });
    });
    it('no call answered plainly: untestable', () => {
      expect(judge('tasks.modern-legacy-task-param', { probes: [{ tool: 'echo', ex: plain }] }).outcome).toBe('untestable');
    });
  });
});
