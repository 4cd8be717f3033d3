// http.param-headers judged on its five calls: matching headers (plain, Base64) must not be refused
// as a mismatch; missing, disagreeing and malformed ones must get 400 and -32020.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import { otherValue, type ParamHeadersObs } from '../../suites/transports/http/param-headers-scenario.js';
import { mayCall } from '../../suites/tools/scenario.js';

const check = CHECKS.find((c) => c.id === 'http.param-headers')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: { tools: {} } } as const;
const ex = (status: number, body?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, method: 'tools/call', messages: body ? [body] : [], ...(body ? { response: body } : {}),
  http: { status, headers: {}, contentType: 'application/json', body: '' }, timedOut: !body, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const served = () => ex(200, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } });
const refused = () => ex(400, { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch' } });
const obs = (o: Partial<ParamHeadersObs> = {}): ParamHeadersObs => ({
  tool: 'echo', header: 'Mcp-Param-Text', value: 'hi', correct: served(), encoded: served(), mismatched: refused(), missing: refused(), malformed: refused(), ...o,
});

describe('http.param-headers', () => {
  it('holds when matching headers are served and the others refused with 400 and -32020', () => {
    expect(check.judge(obs(), ctx).outcome).toBe('holds');
  });

  it('is violated by a served mismatch, a -32602 instead of -32020, or a refused Base64 form of the right value', () => {
    expect(check.judge(obs({ missing: served() }), ctx).message).toMatch(/Mcp-Param-Text missing: a result \(HTTP 200\)/);
    expect(check.judge(obs({ mismatched: ex(400, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }) }), ctx).outcome).toBe('violated');
    expect(check.judge(obs({ encoded: refused() }), ctx).message).toMatch(/matching, Base64-encoded: error -32020/);
    expect(check.judge(obs({ malformed: ex(0, undefined) }), ctx).message).toMatch(/malformed Base64: no answer within the 1000 ms timeout/);
  });

  it('is untestable with nothing to call, or when a matching call was not answered', () => {
    expect(check.judge({ why: 'no listed tool declares x-mcp-header (correctly)' }, ctx)).toEqual({ outcome: 'untestable', message: 'no listed tool declares x-mcp-header (correctly)' });
    expect(check.judge(obs({ correct: ex(0, undefined) }), ctx).outcome).toBe('untestable');
    expect(check.judge(obs({ missing: ex(0, undefined, { aborted: true }) }), ctx).outcome).toBe('untestable');
  });

  it('picks a different value the server cannot take for the same one', () => {
    expect(otherValue('true')).toBe('false');
    expect(otherValue('false')).toBe('true');
    expect(otherValue('41')).toBe('42');
    expect(otherValue('-9007199254740993')).toBe('-9007199254740992');
    expect(otherValue('eu')).toBe('mcpspec-other');
    expect(otherValue('mcpspec-other')).toBe('mcpspec-other-2');
  });

  it('mcpspec, as a 2026-07-28 HTTP client, does not call a tool whose x-mcp-header declaration is invalid (HM-10); elsewhere it may', () => {
    const tool = { name: 'add', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { a: { type: 'number', 'x-mcp-header': 'A' } } } };
    const opts = { allowDestructive: false, allowOpenWorld: false };
    expect(mayCall(tool, { ...opts, httpModern: true })).toMatch(/x-mcp-header declaration is invalid .*not "number".*an HTTP client must not use it \(HM-10\)/);
    expect(mayCall(tool, opts)).toBeUndefined();
    expect(mayCall({ ...tool, inputSchema: { type: 'object', properties: { a: { type: 'integer', 'x-mcp-header': 'A' } } } }, { ...opts, httpModern: true })).toBeUndefined();
  });
});
