import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import { tiedLogs, type LoggedCall } from '../../suites/logging/scenario.js';
import type { Exchange, Session } from '../../suites/ports/session.js';
import type { WireEvent } from '../../results/wire.js';

const judge = (calls: LoggedCall[], capabilities: Record<string, unknown>, untied?: number) =>
  CHECKS.find((c) => c.id === 'logging.per-request')!.judge({ calls, untied }, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities });

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
  it('judges no log message tied to no request (a timer\'s): only mentions it', () => {
    expect(judge([call(undefined, []), call('debug', [])], { tools: {} }, 2)).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('2 other log message(s) tied to no request') });
    expect(judge([call(undefined, []), call('debug', ['info'])], { logging: {}, tools: {} }, 1)).toMatchObject({ outcome: 'holds', message: expect.stringContaining('1 other log message(s)') });
  });
});

describe('tiedLogs: the log messages that belong to one request', () => {
  const log = (level: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data: 'x' } });
  const answer = { jsonrpc: '2.0', id: 7, result: {} };
  const ex = (messages: unknown[], seq: number[]): Exchange => ({ id: 7, method: 'tools/call', request: {}, response: answer, messages, timedOut: false, seq, elapsedMs: 1, startedAt: 0, timeoutMs: 5000 });
  const session = (kind: 'stdio' | 'http', events: Partial<WireEvent>[] = []) => ({ kind, events: () => events as WireEvent[] }) as unknown as Session;
  const levels = (t: ReturnType<typeof tiedLogs>) => [t.before.map((l) => l.params.level), t.after.map((l) => l.params.level)];

  it('HTTP: those on the request\'s stream, split at its response', () => {
    expect(levels(tiedLogs(session('http'), ex([log('debug'), answer, log('info')], [1, 2])))).toEqual([['debug'], ['info']]);
  });
  it('stdio: only those read between the request and its response', () => {
    const inLog = (seq: number, level: string) => ({ seq, dir: 'in' as const, kind: 'message' as const, message: log(level) });
    const events = [inLog(1, 'alert'), { seq: 2, dir: 'out' as const }, inLog(3, 'debug'), { seq: 4, dir: 'in' as const, kind: 'message' as const, message: answer }, inLog(5, 'error')];
    expect(levels(tiedLogs(session('stdio', events), ex([answer], [2, 4])))).toEqual([['debug'], []]);
  });
});
