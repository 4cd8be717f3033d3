// The client checks of x-mcp-header sent on purpose (SEP-2243, HM-10), judged on hand-made traffic:
// integer and boolean arguments encoded in their Mcp-Param-* headers, no header for an argument
// without the annotation, and no call of a listed tool whose x-mcp-header is invalid.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { JudgeContext } from '../../suites/kit/check.js';
import type { ClientObs } from '../../suites/client/client-run.js';
import type { Received } from '../../suites/ports/scripted-server.js';

const judge = (id: string) => CHECKS.find((c) => c.id === id)!;
const ctx: JudgeContext = { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: {} };
let seq = 0;
const call = (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Received => ({
  message: { jsonrpc: '2.0', id: ++seq, method: 'tools/call', params: { name, arguments: args, _meta: {} } },
  headers: { 'mcp-method': 'tools/call', 'mcp-name': name, ...headers },
  httpMethod: 'POST',
  connection: 0,
  seq,
});
const list = (): Received => ({ message: { jsonrpc: '2.0', id: ++seq, method: 'tools/list', params: {} }, headers: { 'mcp-method': 'tools/list' }, httpMethod: 'POST', connection: 0, seq });
const obs = (...received: Received[]): ClientObs => ({ exit: { exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '' }, received, transport: 'http', log: { serverRequests: [], refused: [] } });

describe('client.http-param-encoding', () => {
  const check = judge('client.http-param-encoding');
  it('holds for 42 and true, plain or Base64-wrapped', () => {
    expect(check.judge(obs(call('mcpspec_typed', { count: 42, enabled: true }, { 'mcp-param-count': '42', 'mcp-param-enabled': 'true' })), ctx).outcome).toBe('holds');
    expect(check.judge(obs(call('mcpspec_typed', { enabled: false }, { 'mcp-param-enabled': `=?base64?${Buffer.from('false').toString('base64')}?=` })), ctx).outcome).toBe('holds');
  });
  it('is violated by 42.0, True, a quoted value or a missing header', () => {
    expect(check.judge(obs(call('mcpspec_typed', { count: 42 }, { 'mcp-param-count': '42.0' })), ctx).message).toMatch(/Mcp-Param-Count: 42\.0 for 42/);
    expect(check.judge(obs(call('mcpspec_typed', { enabled: true }, { 'mcp-param-enabled': 'True' })), ctx).outcome).toBe('violated');
    expect(check.judge(obs(call('mcpspec_typed', { enabled: true }, { 'mcp-param-enabled': '"true"' })), ctx).outcome).toBe('violated');
    expect(check.judge(obs(call('mcpspec_typed', { count: 7 })), ctx).message).toMatch(/\(absent\) for 7/);
  });
  it('is untestable without a call of the typed tool carrying an integer or a boolean', () => {
    expect(check.judge(obs(list()), ctx).outcome).toBe('untestable');
    const j = check.judge(obs(call('mcpspec_typed', { text: 'hi' }), call('mcpspec_typed', { count: 1.5 })), ctx);
    expect(j.outcome).toBe('untestable');
    expect(j.message).toMatch(/called mcpspec_typed 2 time\(s\), never with an integer count or a boolean enabled/);
  });
});

describe('client.http-param-unannotated', () => {
  const check = judge('client.http-param-unannotated');
  it('holds when the unannotated text has no header (the declared ones may be there)', () => {
    expect(check.judge(obs(call('mcpspec_typed', { text: 'hi', count: 42 }, { 'mcp-param-count': '42' })), ctx).outcome).toBe('holds');
  });
  it('is violated by a header for text, or any Mcp-Param-* header the schema declares nowhere', () => {
    expect(check.judge(obs(call('mcpspec_typed', { text: 'hi' }, { 'mcp-param-text': 'hi' })), ctx).message).toMatch(/declares nowhere: mcp-param-text/);
    expect(check.judge(obs(call('mcpspec_typed', { text: 'hi' }, { 'mcp-param-region': 'eu' })), ctx).outcome).toBe('violated');
  });
  it('is untestable when the typed tool was not called, or only with annotated arguments', () => {
    expect(check.judge(obs(call('echo', { text: 'hi' }, { 'mcp-param-text': 'hi' })), ctx).outcome).toBe('untestable');
    expect(check.judge(obs(call('mcpspec_typed', { count: 1 }, { 'mcp-param-count': '1', 'mcp-param-text': 'x' })), ctx).outcome).toBe('untestable');
  });
});

describe('client.http-invalid-tool-unused', () => {
  const check = judge('client.http-invalid-tool-unused');
  it('holds when the client called valid_tool and none of the invalid ones', () => {
    expect(check.judge(obs(list(), call('valid_tool', { text: 'hi' })), ctx).outcome).toBe('holds');
  });
  it('is violated by a call of an invalid tool, naming the rule it breaks', () => {
    const j = check.judge(obs(list(), call('invalid_space_in_name', { text: 'hi' }), call('valid_tool', { text: 'hi' })), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/invalid_space_in_name \(an x-mcp-header with a space/);
  });
  it('is untestable when the client called no tool, or only tools not listed here', () => {
    expect(check.judge(obs(list()), ctx)).toEqual({ outcome: 'untestable', message: 'the client called no tool' });
    expect(check.judge(obs(list(), call('add_numbers', {})), ctx).outcome).toBe('untestable');
  });
});
