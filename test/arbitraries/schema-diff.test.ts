import { describe, expect, it } from 'vitest';
import { diffSchemas, mainError, normalisePath, sharedDefinitions } from '../../arbitraries/schema-diff.js';
import { schemaFromObject } from '../../protocol/schema-registry.js';
import { DIFF_A, DIFF_B } from '../helpers/diff-schemas.js';

describe('diffSchemas (the schema differential)', () => {
  const a = schemaFromObject(DIFF_A, 'A');
  const b = schemaFromObject(DIFF_B, 'B');

  it('finds exactly the definitions that differ, each with one shrunk, minimal witness', () => {
    const result = diffSchemas(a, b, { seed: 1, n: 60 });
    expect(result.compared.map((d) => d.definition)).toEqual(['Req', 'Max', 'En', 'Same']);
    const causes = Object.fromEntries(result.compared.map((d) => [d.definition, d.causes]));
    // Required in A only: B accepts the object without it, and nothing else is needed to show it.
    expect(causes.Req).toHaveLength(1);
    expect(causes.Req[0]).toMatchObject({ accepts: 'B', refuses: 'A', witness: {}, error: { instancePath: '', keyword: 'required' } });
    // A maximum in B only: the smallest integer above it.
    expect(causes.Max).toHaveLength(1);
    expect(causes.Max[0]).toMatchObject({ accepts: 'A', refuses: 'B', witness: 11, error: { keyword: 'maximum' } });
    // An enum value in A only.
    expect(causes.En).toHaveLength(1);
    expect(causes.En[0]).toMatchObject({ accepts: 'A', refuses: 'B', witness: 'c', error: { keyword: 'enum' } });
    expect(causes.Same).toEqual([]);
    for (const d of result.compared) {
      expect(d.tried).toBe(120);
      expect(d.disagreements).toBe(d.causes.reduce((n, c) => n + c.count, 0));
    }
    expect(result.skipped).toEqual([{ definition: 'Never', reason: expect.stringContaining('generator') }]);
  });

  it('finds no disagreement between a schema and itself', () => {
    const result = diffSchemas(a, a, { seed: 2, n: 40 });
    expect(result.compared.flatMap((d) => d.causes)).toEqual([]);
  });

  it('is deterministic per seed, and per definition whatever else is compared', () => {
    const all = diffSchemas(a, b, { seed: 5, n: 30 });
    expect(diffSchemas(a, b, { seed: 5, n: 30 })).toEqual(all);
    const one = diffSchemas(a, b, { seed: 5, n: 30, pairs: [{ name: 'Max', a: 'Max', b: 'Max' }] });
    expect(one.compared).toEqual(all.compared.filter((d) => d.definition === 'Max'));
  });

  it('says where a witness came from: a valid value, or a near-valid one with its break', () => {
    const causes = diffSchemas(a, b, { seed: 1, n: 60 }).compared.flatMap((d) => d.causes);
    const byName = Object.fromEntries(causes.map((c) => [c.definition, c.origin]));
    // Seed 1: A's near-valid values (x removed) disagree before B's valid ones (x left out) are tried.
    expect(byName.Req).toEqual({ side: 'A', kind: 'near-valid', label: { path: '', keyword: 'required', mutation: 'required property "x" removed' } });
    expect(byName.Max).toEqual({ side: 'A', kind: 'valid' });
  });

  it('compares differently named definitions on request', () => {
    const result = diffSchemas(a, b, { seed: 3, n: 40, pairs: [{ name: 'Req=Loose', a: 'Req', b: 'Loose' }] });
    expect(result.compared).toHaveLength(1);
    // Any object passes B's Loose: A refuses a missing x, and a wrongly typed x or y.
    const causes = result.compared[0].causes;
    expect(causes.map((c) => `${c.error.instancePath} ${c.error.keyword}`).sort()).toEqual([' required', '/x type', '/y type']);
    expect(causes.every((c) => c.definition === 'Req=Loose' && c.accepts === 'B')).toBe(true);
    expect(causes.find((c) => c.error.keyword === 'required')?.witness).toEqual({});
    expect(sharedDefinitions(a, b)).toEqual(['Req', 'Max', 'En', 'Same', 'Never']);
  });

  it('picks the error that names the cause and groups array items together', () => {
    const err = (instancePath: string, keyword: string) => ({ instancePath, keyword, schemaPath: '#', params: {}, message: keyword });
    // A union's other branch fails on its tag beside the real cause at the same depth.
    expect(mainError([err('/x', 'anyOf'), err('/x/type', 'const'), err('/x/size', 'minimum'), err('', 'required')]).keyword).toBe('minimum');
    expect(normalisePath('/content/0/items/12/a1')).toBe('/content/*/items/*/a1');
  });
});
