// http.standard-header-missing, -mismatch, -name-case and -ows judged on the probes of the http-standard-headers
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
  listMethod: 'tools/list', plain: served(), noMethod: refused(), methodCase: refused(), methodMismatch: refused(), methodOws: served(), namesCased: served(),
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
  it('names the list request the probes went on (a server without tools gets prompts/list, told another method with tools/list)', () => {
    expect(check.judge(obs({ listMethod: 'prompts/list', methodMismatch: served() }), ctx).message).toMatch(/^prompts\/list with Mcp-Method: tools\/list: a result/);
    expect(check.judge(obs({ listMethod: 'resources/list', named: undefined, nameMismatch: undefined, whyNoNamed: 'no resource listed' }), ctx).message).toMatch(/^Mcp-Method RESOURCES\/LIST and prompts\/list on resources\/list: each refused/);
  });
});

describe('http.standard-header-name-case', () => {
  const check = judge('http.standard-header-name-case');
  it('holds when both requests with odd-cased header names are served as their usual form was (an error answered alike too)', () => {
    expect(check.judge(obs(), ctx).message).toMatch(/^2 request\(s\) with header names in other cases, each served as usual$/);
    expect(check.judge(obs({ namedPlain: failed(-32002), namedCased: failed(-32002) }), ctx).outcome).toBe('holds');
  });
  it('is violated when an odd-cased header name gets refused', () => {
    expect(check.judge(obs({ namesCased: refused() }), ctx).message).toMatch(/header names MCP-METHOD and mcp-protocol-version: error -32020 "no" \(HTTP 400\), while the usual form got a result/);
    expect(check.judge(obs({ namedCased: refused() }), ctx).message).toMatch(/header names mcp-method and MCP-NAME/);
  });
  it('leaves the named request out when its usual form got no answer, and says so', () => {
    const j = check.judge(obs({ namedPlain: ex(0, undefined), namedCased: refused() }), ctx);
    expect(j.outcome).toBe('holds');
    expect(j.message).toMatch(/not probed on a named request: resources\/read file:\/\/\/a as a client sends it got no answer/);
  });
});

describe('http.standard-header-ows', () => {
  const check = judge('http.standard-header-ows');
  it('holds when values with spaces around them are served as usual', () => {
    expect(check.judge(obs(), ctx).message).toMatch(/^2 request\(s\) with spaces around the value, each served as usual$/);
  });
  it('is violated when a value with spaces around it is refused, on either request', () => {
    expect(check.judge(obs({ methodOws: refused() }), ctx).message).toMatch(/Mcp-Method: " tools\/list\\t": error -32020/);
    expect(check.judge(obs({ nameOws: failed(-32602) }), ctx).message).toMatch(/with spaces around Mcp-Name: error -32602/);
  });
  it('is untestable when the run ended first', () => {
    expect(check.judge(obs({ methodOws: ex(0, undefined, { aborted: true }) }), ctx).outcome).toBe('untestable');
  });
});
