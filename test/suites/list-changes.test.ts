// lists.prompts-changed and lists.tools-changed: one judgement for a provoked list change, by list.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { ListChangeObs } from '../../suites/list-changed/tools-change-scenario.js';
import type { WireEvent } from '../../results/wire.js';

const prompts = CHECKS.find((c) => c.id === 'lists.prompts-changed')!;
const tools = CHECKS.find((c) => c.id === 'lists.tools-changed')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { prompts: { listChanged: true }, tools: {} } } as const;
const ex = (response?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, method: 'tools/call', messages: response ? [response] : [], ...(response ? { response } : {}),
  timedOut: !response, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const CALLED = ex({ jsonrpc: '2.0', id: 1, result: { content: [] } });
const NOTIFIED = { seq: 9, dir: 'in', channel: 'stdout', message: { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' } } as unknown as WireEvent;
const before = [{ name: 'greeting', description: 'Hi' }];
const after = [{ name: 'greeting', description: 'Hi (1 change)' }];
const obs = (o: Partial<ListChangeObs> = {}): ListChangeObs => ({ declared: true, trigger: 'test_trigger_prompt_change', call: CALLED, waitedMs: 1000, unseeable: false, before, after, ...o });

describe('lists.prompts-changed', () => {
  it('holds when the notification came on the listen stream', () => {
    expect(prompts.judge(obs({ notified: NOTIFIED }), ctx)).toMatchObject({
      outcome: 'holds',
      message: 'after test_trigger_prompt_change, notifications/prompts/list_changed came on the listen stream; the next prompts/list shows the change',
    });
  });

  it('is violated when the prompt list changed and nothing came', () => {
    const v = prompts.judge(obs(), ctx);
    expect(v.outcome).toBe('violated');
    expect(v.message).toBe('after test_trigger_prompt_change the prompt list changed, but no notifications/prompts/list_changed came on the listen stream within 1000 ms');
  });

  it('skips without prompts.listChanged; untestable without a trigger, an acknowledged listen, a served call or a visible change', () => {
    expect(prompts.judge(obs({ declared: false }), ctx)).toEqual({ outcome: 'skip', message: 'the server does not declare prompts.listChanged' });
    const none = 'no tool known to change the prompt list is listed (test_trigger_prompt_change)';
    expect(prompts.judge(obs({ noTrigger: none }), ctx)).toEqual({ outcome: 'untestable', message: none });
    expect(prompts.judge(obs({ listenFailed: ex({ jsonrpc: '2.0', id: 'l', error: { code: -32602, message: 'no' } }) }), ctx).message).toMatch(/^subscriptions\/listen \(promptsListChanged\) was not acknowledged/);
    expect(prompts.judge(obs({ call: ex({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } }) }), ctx).outcome).toBe('untestable');
    expect(prompts.judge(obs({ after: before }), ctx).message).toBe('calling test_trigger_prompt_change changed nothing visible in prompts/list and no notification came');
  });

  it('judges the tool list with its own words', () => {
    expect(tools.judge(obs({ trigger: 'test_trigger_tool_change' }), ctx).message).toBe('after test_trigger_tool_change the tool list changed, but no notifications/tools/list_changed came on the listen stream within 1000 ms');
  });
});
