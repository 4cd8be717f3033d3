import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { LoggedCall } from '../../suites/logging/scenario.js';

const judge = (calls: LoggedCall[], capabilities: Record<string, unknown>) =>
  CHECKS.find((c) => c.id === 'logging.per-request')!.judge({ calls }, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities });

const call = (level: string | undefined, logs: string[], late: string[] = []): LoggedCall => ({
  target: 'tools/call echo',
  level,
  exchange: { id: 1, method: 'tools/call', request: {}, response: { jsonrpc: '2.0', id: 1, result: {} }, messages: [], timedOut: false, seq: [1, 2], elapsedMs: 5, startedAt: 0, timeoutMs: 5000 },
  logs: logs.map((l) => ({ level: l, data: 'x' })),
  late: late.map((l) => ({ level: l, data: 'x' })),
});

describe('logging.per-request (LG-01)', () => {
  it('holds for logs at or above the asked level, before the response, from a server that declares logging', () => {
    expect(judge([call(undefined, []), call('debug', ['info']), call('warning', ['error'])], { logging: {}, tools: {} })).toMatchObject({ outcome: 'holds' });
  });
  it('fails a log message that follows the response', () => {
    expect(judge([call('debug', [], ['info'])], { logging: {}, tools: {} })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('after its response') });
  });
  it('fails any log message from a server that does not declare logging', () => {
    expect(judge([call('debug', ['info'])], { tools: {} })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('lack logging') });
  });
  it('is untestable when no log message came at all', () => {
    expect(judge([call(undefined, []), call('debug', [])], { tools: {} })).toMatchObject({ outcome: 'untestable' });
  });
});
