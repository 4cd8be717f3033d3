import { describe, expect, it } from 'vitest';
import { baggageProblem, traceparentProblem, tracestateProblem } from '../../protocol/trace-context.js';
import { isReservedMetaKey, undefinedReservedKey } from '../../protocol/reserved-meta-keys.js';
import { judgeReservedKeys, judgeTraceContext } from '../../suites/meta/checks.js';
import type { WireEvent } from '../../results/wire.js';

const GOOD_PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('W3C trace context values (MT-09)', () => {
  it('traceparent: version-traceid-parentid-flags in lowercase hex', () => {
    expect(traceparentProblem(GOOD_PARENT)).toBeUndefined();
    expect(traceparentProblem('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later')).toBeUndefined();
    expect(traceparentProblem('trace-12345')).toMatch(/not version-traceid/);
    expect(traceparentProblem(GOOD_PARENT.toUpperCase())).toMatch(/not version-traceid/);
    expect(traceparentProblem(`${GOOD_PARENT}-x`)).toMatch(/version 00 has four/);
    expect(traceparentProblem(GOOD_PARENT.replace(/^00/, 'ff'))).toMatch(/version ff/);
    expect(traceparentProblem('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toMatch(/all-zero trace-id/);
    expect(traceparentProblem('00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01')).toMatch(/all-zero parent-id/);
    expect(traceparentProblem(42)).toMatch(/not a string/);
  });
  it('tracestate: up to 32 key=value members, each key once', () => {
    expect(tracestateProblem('congo=t61rcWkgMzE, rojo=00f067aa0ba902b7')).toBeUndefined();
    expect(tracestateProblem('tenant@vendor=x')).toBeUndefined();
    expect(tracestateProblem('')).toBeUndefined();
    expect(tracestateProblem('Congo=x')).toMatch(/member "Congo=x"/);
    expect(tracestateProblem('a=x,a=y')).toMatch(/twice/);
    expect(tracestateProblem(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(','))).toMatch(/33 list members/);
  });
  it('baggage: key=value members with optional properties', () => {
    expect(baggageProblem('userId=alice,serverNode=DF%2028,isProduction=false')).toBeUndefined();
    expect(baggageProblem('key1=value1;property1;property2=x')).toBeUndefined();
    expect(baggageProblem('')).toMatch(/empty/);
    expect(baggageProblem('no value here')).toMatch(/member/);
    expect(baggageProblem('k=a b')).toMatch(/member/);
  });
});

describe('reserved _meta prefixes (MT-10)', () => {
  it('a prefix is reserved when its second label is modelcontextprotocol or mcp', () => {
    expect(isReservedMetaKey('io.modelcontextprotocol/x')).toBe(true);
    expect(isReservedMetaKey('dev.mcp/x')).toBe(true);
    expect(isReservedMetaKey('com.example.mcp/x')).toBe(false);
    expect(isReservedMetaKey('progressToken')).toBe(false);
  });
  it('keys MCP and its official extensions define are not made up; declared extension ids are allowed', () => {
    expect(undefinedReservedKey('io.modelcontextprotocol/serverInfo')).toBe(false);
    expect(undefinedReservedKey('io.modelcontextprotocol/related-task')).toBe(false);
    expect(undefinedReservedKey('io.modelcontextprotocol/elapsedMs')).toBe(true);
    expect(undefinedReservedKey('io.modelcontextprotocol/future-ext', new Set(['io.modelcontextprotocol/future-ext']))).toBe(false);
  });
});

const sent = (seq: number, message: unknown): WireEvent => ({ seq, dir: 'in', kind: 'message', message, t: 0 }) as unknown as WireEvent;

describe('the judges over what the server sent', () => {
  it('meta.trace-context: untestable without trace keys, violated on a malformed one, holds otherwise', () => {
    expect(judgeTraceContext([sent(1, { jsonrpc: '2.0', id: 1, result: {} })], 'server').outcome).toBe('untestable');
    const bad = judgeTraceContext([sent(1, { jsonrpc: '2.0', id: 1, result: { _meta: { traceparent: 'trace-12345' } } })], 'server');
    expect(bad).toMatchObject({ outcome: 'violated', evidence: [{ pointer: '/result/_meta/traceparent', seq: [1] }] });
    expect(judgeTraceContext([sent(1, { jsonrpc: '2.0', id: 1, result: { _meta: { traceparent: GOOD_PARENT } } })], 'server').outcome).toBe('holds');
  });
  it('meta.reserved-keys: a made-up key under io.modelcontextprotocol/ is named; one the server declared as an extension is not', () => {
    const bad = judgeReservedKeys([sent(3, { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/elapsedMs': 12 } } })], 'server');
    expect(bad.outcome).toBe('violated');
    expect(bad.message).toContain('"io.modelcontextprotocol/elapsedMs"');
    const declared = judgeReservedKeys([
      sent(1, { jsonrpc: '2.0', id: 0, result: { capabilities: { extensions: { 'io.modelcontextprotocol/new-thing': {} } } } }),
      sent(2, { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/new-thing': { a: 1 } } } }),
    ], 'server');
    expect(declared.outcome).toBe('holds');
  });
});
