// tasks.modern-kept-for-ttl judges only reads the server surely made within the task's ttlMs: from
// when mcpspec asked for the task to when the read's answer came back, by the shortest ttlMs given.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { JudgeContext } from '../../suites/kit/check.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { Exchange } from '../../suites/ports/session.js';

const oracle = CHECKS.find((c) => c.id === 'tasks.modern-kept-for-ttl')!;
const CTX = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} } as JudgeContext;
let id = 0;

function exchange(method: string, params: Record<string, unknown>, answer: { result?: Record<string, unknown>; error?: { code: number; message: string } }, startedAt: number, elapsedMs: number): Exchange {
  const n = ++id;
  return { id: n, method, request: { jsonrpc: '2.0', id: n, method, params }, response: { jsonrpc: '2.0', id: n, ...answer }, messages: [], timedOut: false, elapsedMs, startedAt, timeoutMs: 10_000, seq: [n * 2, n * 2 + 1] };
}
const created = (ttlMs: number) => exchange('tools/call', { name: 'slow' }, { result: { resultType: 'task', taskId: 't1', status: 'working', ttlMs } }, 0, 10);
const read = (at: number, elapsedMs: number, answer: 'task' | 'unknown', ttlMs = 1000) =>
  exchange('tasks/get', { taskId: 't1' }, answer === 'task' ? { result: { resultType: 'complete', taskId: 't1', status: 'working', ttlMs } } : { error: { code: -32602, message: 'Unknown task' } }, at, elapsedMs);
const judge = (exchanges: Exchange[]) => oracle.judge({ exchanges, events: [], deliberate: () => false } as unknown as RunObservations, CTX);

describe('tasks.modern-kept-for-ttl', () => {
  it('fails a read answered -32602 well within the ttlMs', () => {
    expect(judge([created(1000), read(100, 10, 'task'), read(500, 10, 'unknown')]).outcome).toBe('violated');
  });

  it('does not judge a read whose answer came back after the ttlMs ran out, though it was sent before (a slow link, a loaded machine)', () => {
    expect(judge([created(1000), read(900, 200, 'unknown')]).outcome).toBe('untestable');
  });

  it('judges by the shortest ttlMs the task was given, and holds when every judged read found the task', () => {
    const j = judge([created(1000), read(100, 10, 'task', 300), read(500, 10, 'unknown'), read(200, 10, 'task')]);
    expect(j).toMatchObject({ outcome: 'holds', message: '2 reads of 1 task(s) within their ttlMs, none answered as unknown' });
  });

  it('has nothing to judge without a task', () => {
    expect(judge([]).outcome).toBe('untestable');
  });
});
