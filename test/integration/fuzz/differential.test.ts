// fuzz --differential: what two sides may answer differently, and a planted difference between
// stdio and HTTP found, shrunk to the one step that shows it, while correct servers show none.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparable, differences } from '../../../fuzz/differential.js';
import type { SequenceOutcome } from '../../../fuzz/run-sequence.js';
import type { FuzzStep } from '../../../arbitraries/fuzz-sequences.js';
import { cli } from '../../helpers/cli.js';

const REF = join(process.cwd(), 'dist/fixtures/servers/reference/main.js');
const PLANTED = join(process.cwd(), 'dist/fixtures/servers/planted/main.js');

const outcome = (...responses: unknown[]): SequenceOutcome => ({ records: responses.map((response) => ({ step: { kind: 'request', method: 'tools/list', params: {}, idStyle: 'counter' } as FuzzStep, response })), observations: [], durationMs: 0 });
const steps = (n: number): FuzzStep[] => Array.from({ length: n }, () => ({ kind: 'request', method: 'tools/list', params: {}, idStyle: 'counter' }) as FuzzStep);

describe('what the two sides are compared on', () => {
  it('ids, _meta, resultType, caching fields, cursor values and error messages may differ; results, codes and silence may not', () => {
    const a = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'x' }], nextCursor: 'abc', ttlMs: 5, cacheScope: 'public', resultType: 'complete', _meta: { s: 1 } } };
    const b = { jsonrpc: '2.0', id: 'other', result: { tools: [{ name: 'x' }], nextCursor: 'zzz' } };
    expect(comparable(a)).toEqual(comparable(b));
    expect(comparable({ id: 1, error: { code: -32602, message: 'one' } })).toEqual(comparable({ id: 2, error: { code: -32602, message: 'two' } }));
    expect(comparable({ id: 1, error: { code: -32602, message: 'x' } })).not.toEqual(comparable({ id: 1, error: { code: -32601, message: 'x' } }));
    expect(comparable(undefined)).not.toEqual(comparable({ id: 1, error: { code: -32601, message: 'x' } }));
    expect(comparable({ id: 1, result: { tools: [{ name: 'x' }] } })).not.toEqual(comparable({ id: 1, result: { tools: [{ name: 'y' }] } }));
  });

  it('a step is a difference only where both sides ran it; an error only one era has is no difference between eras', () => {
    const ok = { id: 1, result: { tools: [] } };
    const capability = { id: 1, error: { code: -32021, message: 'needs roots' } };
    expect(differences(steps(2), outcome(ok, ok), outcome(ok, { id: 2, error: { code: -32603, message: 'x' } }))).toMatchObject([{ step: 1, method: 'tools/list' }]);
    expect(differences(steps(1), outcome(ok), outcome(capability), undefined, 'eras')).toEqual([]);
    expect(differences(steps(1), outcome(ok), outcome(capability), undefined, 'transports')).toHaveLength(1);
    expect(differences(steps(2), outcome(ok, ok), outcome(ok, undefined), new Set([1]))).toEqual([]);
  });
});

describe('mcpspec fuzz --differential (built CLI)', () => {
  const transports = (bug: string[]) => ['fuzz', '--differential', 'transports', '--http-args=--http --port {port}', '--runs', '30', '--seed', '1', '--timeout', '3s', '--stdio', '--', 'node', PLANTED, ...bug];

  it('transports: echo upper-cased over HTTP only is found and shrunk to that one call; without the bug there is no difference', async () => {
    const r = await cli(transports(['--bug', 'http-upper']));
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/DIFF at tools\/call echo \(step 1;.*shrunk/);
    // The two answers, as the report shows them (cut at 300 characters): the same text, upper-cased over HTTP.
    const side = (name: string) => r.out.split('\n').find((l) => l.startsWith(`  ${name}: `))!.slice(name.length + 4);
    const text = (line: string) => /"text":"([^"]*)/.exec(line)![1];
    expect(text(side('stdio'))).toMatch(/[a-z]/);
    expect(text(side('http'))).toBe(text(side('stdio')).toUpperCase());
    expect(r.out).toMatch(/\n {4}1\. tools\/call echo/);
    expect(r.out).not.toMatch(/\n {4}2\. /);
    const twin = await cli(transports([]));
    expect(twin.code, twin.out + twin.err).toBe(0);
    expect(twin.out).toMatch(/no differences/);
  }, 120_000);

  it('eras: the dual-era reference answers the same in both eras; bad input is exit 2', async () => {
    const r = await cli(['fuzz', '--differential', 'eras', '--runs', '15', '--seed', '1', '--timeout', '3s', '--stdio', '--', 'node', REF]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/legacy \(2025-11-25\) vs modern \(2026-07-28\), 15 sequences/);
    const bad = await cli(['fuzz', '--differential', 'transports', '--runs', '2', '--stdio', '--', 'node', REF]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--http-args/);
  }, 120_000);
});
