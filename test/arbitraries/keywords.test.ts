import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearValid, schemaArbitraries, valid } from '../../arbitraries/index.js';

/** A tool-style inputSchema that uses every keyword the generators model. */
const kitchenSink = {
  $defs: {
    node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'] },
  },
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[a-z]+$' },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 },
    mode: { enum: ['fast', 'slow'] },
    kind: { const: 'fixed' },
    nullable: { type: ['string', 'null'] },
    scores: { type: 'array', items: { type: 'integer' }, maxItems: 2 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false },
    when: { type: 'string', format: 'date-time' },
    link: { type: 'string', format: 'uri' },
    mail: { type: 'string', format: 'email' },
    shape: {
      oneOf: [
        { type: 'object', properties: { circle: { type: 'number' } }, required: ['circle'], additionalProperties: false },
        { type: 'object', properties: { square: { type: 'number' } }, required: ['square'], additionalProperties: false },
      ],
    },
    either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    labels: { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'string' } }, additionalProperties: false },
    extra: { type: 'object', additionalProperties: { type: 'integer' } },
    tree: { $ref: '#/$defs/node' },
  },
  required: ['name', 'count', 'mode', 'kind', 'tree'],
  additionalProperties: false,
};

describe('valid()', () => {
  it('generates only values ajv accepts for every modelled keyword', () => {
    const { valid: arb, validate } = schemaArbitraries(kitchenSink);
    fc.assert(fc.property(arb, (v) => validate(v)), { numRuns: 300, seed: 1 });
  });

  it('reaches optional properties, recursion and both oneOf branches', () => {
    const values = fc.sample(valid(kitchenSink), { numRuns: 300, seed: 2 }) as Record<string, any>[];
    expect(values.some((v) => v.shape && 'circle' in v.shape)).toBe(true);
    expect(values.some((v) => v.shape && 'square' in v.shape)).toBe(true);
    expect(values.some((v) => v.tree.children?.length)).toBe(true);
    const deep = fc.sample(valid(kitchenSink, { maxDepth: 6 }), { numRuns: 300, seed: 2 }) as Record<string, any>[];
    expect(deep.some((v) => v.tree.children?.some((c: any) => c.children?.length))).toBe(true);
    expect(values.some((v) => v.nullable === null)).toBe(true);
    expect(values.some((v) => v.labels && Object.keys(v.labels).length > 0)).toBe(true);
  });

  it('writes realistic formats', () => {
    const values = fc.sample(valid(kitchenSink), { numRuns: 200, seed: 3 }) as Record<string, any>[];
    const links = values.map((v) => v.link).filter(Boolean);
    expect(links.length).toBeGreaterThan(10);
    for (const l of links) expect(l).toMatch(/^[a-z][a-z0-9+.-]*:\/\//);
  });
});

describe('nearValid()', () => {
  it('breaks each kind of constraint, with a label ajv agrees with', () => {
    const { nearValid: arb, validate } = schemaArbitraries(kitchenSink);
    const seen = new Set<string>();
    fc.assert(
      fc.property(arb, ({ value, label }) => {
        seen.add(label.keyword);
        return !validate(value);
      }),
      { numRuns: 3000, seed: 4 },
    );
    for (const k of ['required', 'type', 'const', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
      'minLength', 'maxLength', 'pattern', 'format', 'additionalProperties', 'oneOf', 'anyOf', 'minItems', 'maxItems', 'uniqueItems']) {
      expect(seen, `mutation kind ${k}`).toContain(k);
    }
  });

  it('labels a dropped required property at the object, as ajv does', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const samples = fc.sample(nearValid(schema), { numRuns: 100, seed: 5 });
    const dropped = samples.find((s) => s.label.keyword === 'required');
    expect(dropped).toBeDefined();
    expect(dropped!.label.path).toBe('');
    expect(dropped!.value).toEqual({});
  });

  it('refuses a schema that accepts everything, with the reason', () => {
    expect(() => fc.sample(nearValid({}), 1)).toThrow(/accepts every JSON value/);
  });
});

describe('shrinking', () => {
  it('shrinks a failing property over generated values to a small counterexample', () => {
    // Deliberately false: some generated object has a count above 3.
    const arb = valid(kitchenSink) as fc.Arbitrary<Record<string, any>>;
    const out = fc.check(fc.property(arb, (v) => v.count <= 3), { seed: 6, numRuns: 500 });
    expect(out.failed).toBe(true);
    const [example] = out.counterexample as [Record<string, any>];
    expect(example.count).toBe(4); // the smallest count that breaks the property
    // Only the required keys survive shrinking.
    expect(Object.keys(example).sort()).toEqual(['count', 'kind', 'mode', 'name', 'tree']);
    expect(schemaArbitraries(kitchenSink).validate(example)).toBe(true);
  });

  it('shrinks near-valid MCP messages too', async () => {
    const { messages } = await import('../../arbitraries/index.js');
    const arb = messages('2026-07-28').request('tools/call').nearValid;
    // Deliberately false: no mutation lands inside params.
    const out = fc.check(fc.property(arb, ({ label }) => !label.path.startsWith('/params')), { seed: 7, numRuns: 500 });
    expect(out.failed).toBe(true);
    const [{ value }] = out.counterexample as [{ value: unknown }];
    expect(JSON.stringify(value).length).toBeLessThan(300);
  });
});
