// tasks.modern-input-keys-stable (TB-11): an inputRequests key names one request for the task's whole
// lifetime; a repeat of the same request is the same outstanding request, another one is the rule broken.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { JudgeContext } from '../../suites/kit/check.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { Exchange } from '../../suites/ports/session.js';

const oracle = CHECKS.find((c) => c.id === 'tasks.modern-input-keys-stable')!;
const CTX = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} } as JudgeContext;
let id = 0;

const ask = (message: string) => ({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } });
function poll(taskId: string, inputRequests?: Record<string, unknown>): Exchange {
  const n = ++id;
  const result = { resultType: 'complete', taskId, status: inputRequests ? 'input_required' : 'working', ...(inputRequests ? { inputRequests } : {}) };
  return { id: n, method: 'tasks/get', request: { jsonrpc: '2.0', id: n, method: 'tasks/get', params: { taskId } }, response: { jsonrpc: '2.0', id: n, result }, messages: [], timedOut: false, elapsedMs: 5, startedAt: n, timeoutMs: 10_000, seq: [n * 2, n * 2 + 1] };
}
const judge = (exchanges: Exchange[]) => oracle.judge({ exchanges, events: [], deliberate: () => false } as unknown as RunObservations, CTX);

describe('tasks.modern-input-keys-stable', () => {
  it('holds when a key repeats the same request on every poll', () => {
    expect(judge([poll('t1', { q: ask('Depth?') }), poll('t1', { q: ask('Depth?') }), poll('t1')])).toMatchObject({ outcome: 'holds' });
  });
  it('fails a key that names another request on a later poll, with both polls as evidence', () => {
    const j = judge([poll('t1', { q: ask('Depth?') }), poll('t1', { q: ask('Audience?') })]);
    expect(j).toMatchObject({ outcome: 'violated', message: expect.stringContaining('key "q"') });
    expect(j.outcome === 'violated' && j.evidence).toHaveLength(2);
  });
  it('keeps tasks apart (the same key on two tasks may ask different things), and has nothing to judge without input requests', () => {
    expect(judge([poll('t1', { q: ask('Depth?') }), poll('t1', { q: ask('Depth?') }), poll('t2', { q: ask('Audience?') })]).outcome).toBe('holds');
    expect(judge([poll('t1')]).outcome).toBe('untestable');
    // A key shown on one poll only cannot have changed: no pass on it.
    expect(judge([poll('t1', { q: ask('Depth?') }), poll('t2', { q: ask('Audience?') })]).outcome).toBe('untestable');
  });
});
