// http.standard-header-missing, -mismatch and -forms judged on the probes of the http-standard-headers
// scenario: missing and mismatched standard headers must get 400 and -32020; odd-cased header names
// and spaces around a value must be served as the usual form was.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { StandardHeadersObs } from '../../suites/transports/http/standard-headers-scenario.js';

const judge = (id: string) => CHECKS.find((c) => c.id === id)!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: { tools: {}, resources: {} } } as const;
const ex = (status: number, body?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, method: 'tools/list', messages: body ? [body] : [], ...(body ? { response: body } : {}),
  http: { status, headers: {}, contentType: 'application/json', body: '' }, timedOut: !body, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const served = () => ex(200, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [] } });
const failed = (code: number, status = 400) => ex(status, { jsonrpc: '2.0', id: 1, error: { code, message: 'no' } });
const refused = () => failed(-32020);
const obs = (o: Partial<StandardHeadersObs> = {}): StandardHeadersObs => ({
  plain: served(), noMethod: refused(), methodCase: refused(), methodMismatch: refused(), methodOws: served(), namesCased: served(),
  named: { method: 'resources/read', params: { uri: 'file:///a' }, name: 'file:///a' },
  namedPlain: served(), noName: refused(), nameMismatch: refused(), nameOws: served(), namedCased: served(), ...o,
});

describe('http.standard-header-missing', () => {
  const check = judge('http.standard-header-missing');
  it('holds when both missing headers are refused with 400 and -32020, and says what was not probed', () => {
    expect(check.judge(obs(), ctx).outcome).toBe('holds');
    const partial = check.judge(obs({ named: undefined, noName: undefined, whyNoNamed: 'no resource listed' }), ctx);
    expect(partial.outcome).toBe('holds');
    expect(partial.message).toMatch(/not probed: a request without Mcp-Name \(no resource listed\)/);
  });
  it('is violated by a served request, or by a refusal with another code or status', () => {
    expect(check.judge(obs({ noMethod: served() }), ctx).message).toMatch(/tools\/list without Mcp-Method: a result \(HTTP 200\)/);
    expect(check.judge(obs({ noName: failed(-32600) }), ctx).message).toMatch(/resources\/read file:\/\/\/a without Mcp-Name: error -32600/);
    expect(check.judge(obs({ noMethod: failed(-32020, 200) }), ctx).outcome).toBe('violated');
  });
  it('is untestable when the usual tools/list was not served, or the run ended first', () => {
    expect(check.judge(obs({ plain: failed(-32603, 500) }), ctx).outcome).toBe('untestable');
    expect(check.judge(obs({ noName: ex(0, undefined, { aborted: true }) }), ctx).outcome).toBe('untestable');
  });
});

describe('http.standard-header-mismatch', () => {
  const check = judge('http.standard-header-mismatch');
  it('holds when the cased, other-method and other-name probes are refused with 400 and -32020', () => {
    expect(check.judge(obs(), ctx).outcome).toBe('holds');
  });
  it('is violated by a value that differs in case only being served', () => {
    const j = check.judge(obs({ methodCase: served() }), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/Mcp-Method: TOOLS\/LIST \(values are case-sensitive\): a result/);
    expect(check.judge(obs({ nameMismatch: served() }), ctx).message).toMatch(/Mcp-Name: mcpspec-no-such-name/);
  });
});

describe('http.standard-header-forms', () => {
  const check = judge('http.standard-header-forms');
  it('holds when every form is served as the usual one was (an error answered alike too)', () => {
    expect(check.judge(obs(), ctx).outcome).toBe('holds');
    expect(check.judge(obs({ namedPlain: failed(-32002), nameOws: failed(-32002), namedCased: failed(-32002) }), ctx).outcome).toBe('holds');
  });
  it('is violated when an odd-cased header name or spaces around the value get refused', () => {
    expect(check.judge(obs({ namesCased: refused() }), ctx).message).toMatch(/header names MCP-METHOD and mcp-protocol-version: error -32020 "no" \(HTTP 400\), while the usual form got a result/);
    expect(check.judge(obs({ nameOws: refused() }), ctx).outcome).toBe('violated');
  });
  it('leaves the named request out when its usual form got no answer, and says so', () => {
    const j = check.judge(obs({ namedPlain: ex(0, undefined), nameOws: refused() }), ctx);
    expect(j.outcome).toBe('holds');
    expect(j.message).toMatch(/not probed on a named request: resources\/read file:\/\/\/a as a client sends it got no answer/);
  });
});
