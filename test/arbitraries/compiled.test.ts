import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileDefinition, compileSchema, loadSchema, NotMutableError, Rng, schemaFromObject, VENDORED_SCHEMAS, type NearValid } from '../../arbitraries/index.js';
import { independentValidator } from './independent-ajv.js';

const exclusions: Record<string, Record<string, string>> = JSON.parse(
  readFileSync(new URL('./near-valid-exclusions.json', import.meta.url), 'utf8'),
);
const RUNS = Number(process.env.MCPSPEC_COMPILED_RUNS ?? 60);

/** What "labelled-invalid" means: ajv fails the value, reports the label, and nothing off the label's path. */
function labelledInvalid(validate: ValidateFunction, { value, label }: NearValid): string | undefined {
  if (validate(value)) return 'ajv accepts the value';
  const errors = (validate.errors ?? []).map((e) => [e.instancePath, e.keyword] as const);
  if (!errors.some(([p, k]) => p === label.path && k === label.keyword)) return `label ${JSON.stringify(label)} not among ${JSON.stringify(errors)}`;
  const onLine = (p: string) => p === label.path || p.startsWith(`${label.path}/`) || label.path.startsWith(`${p}/`) || p === '';
  const off = errors.filter(([p]) => !onLine(p));
  return off.length ? `errors off the label's path ${label.path}: ${JSON.stringify(off)}` : undefined;
}

describe('compiled generators on every vendored schema', () => {
  for (const [key, file] of Object.entries(VENDORED_SCHEMAS)) {
    it(`${key}: every definition gives valid values, and labelled near-valid ones (or has none, as listed)`, () => {
      const doc = loadSchema(key);
      const check = independentValidator(join('fixtures', 'schemas', file));
      const excluded = exclusions[key] ?? {};
      const problems: string[] = [];
      for (const def of doc.definitions()) {
        const validate = check(doc.pointerOf(def));
        const gen = compileDefinition(doc, def, { specVersion: key });
        const r = new Rng(42);
        for (let i = 0; i < RUNS; i++) {
          const v = gen.valid(r);
          if (!validate(v)) problems.push(`${def} valid value rejected: ${JSON.stringify(v).slice(0, 200)} ${JSON.stringify(validate.errors).slice(0, 300)}`);
        }
        if (excluded[def]) {
          expect(gen.canBreak, def).toBe(false);
          expect(() => gen.nearValid(r)).toThrow(NotMutableError);
          continue;
        }
        expect(gen.canBreak, `${def} has near-valid values`).toBe(true);
        for (let i = 0; i < RUNS; i++) {
          const nv = gen.nearValid(r);
          const why = labelledInvalid(validate, nv);
          if (why) problems.push(`${def} near-valid ${JSON.stringify(nv.value).slice(0, 200)}: ${why}`);
        }
      }
      expect(problems.slice(0, 5)).toEqual([]);
    });
  }
});

/** A tool-style inputSchema using every keyword the generators model (as in keywords.test.ts). */
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
    id: { type: 'string', format: 'uuid' },
    host: { type: 'string', format: 'ipv4' },
    shape: {
      oneOf: [
        { type: 'object', properties: { circle: { type: 'number' } }, required: ['circle'], additionalProperties: false },
        { type: 'object', properties: { square: { type: 'number' } }, required: ['square'], additionalProperties: false },
      ],
    },
    either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    overlap: { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } } }, { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] }] },
    not5: { type: 'integer', minimum: 0, maximum: 9, not: { const: 5 } },
    labels: { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'string' } }, additionalProperties: false },
    extra: { type: 'object', additionalProperties: { type: 'integer' } },
    tree: { $ref: '#/$defs/node' },
  },
  required: ['name', 'count', 'mode', 'kind', 'tree'],
  additionalProperties: false,
};

describe('compiled generators on a tool schema', () => {
  const gen = compileSchema(kitchenSink);

  it('generates only values ajv accepts, reaching optional members, recursion and both oneOf branches', () => {
    const values = gen.sample(2000, 1) as Record<string, any>[];
    for (const v of values) expect(gen.validate(v), JSON.stringify(v)).toBe(true);
    expect(values.some((v) => v.shape && 'circle' in v.shape)).toBe(true);
    expect(values.some((v) => v.shape && 'square' in v.shape)).toBe(true);
    expect(values.some((v) => v.tree.children?.length)).toBe(true);
    expect(values.some((v) => v.nullable === null)).toBe(true);
    expect(values.some((v) => v.labels && Object.keys(v.labels).length > 0)).toBe(true);
    expect(values.some((v) => v.not5 !== undefined)).toBe(true);
    for (const v of values) if (v.link) expect(v.link).toMatch(/^[a-z][a-z0-9+.-]*:\/\//);
  });

  it('breaks each kind of constraint, always as labelled', () => {
    const seen = new Set<string>();
    const doc = schemaFromObject(kitchenSink);
    const validate = doc.validatorForNodes([doc.root]);
    const r = new Rng(4);
    for (let i = 0; i < 4000; i++) {
      const nv = gen.nearValid(r);
      seen.add(nv.label.keyword);
      expect(labelledInvalid(validate, nv), JSON.stringify(nv)).toBeUndefined();
    }
    for (const k of ['required', 'type', 'const', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
      'minLength', 'maxLength', 'pattern', 'format', 'additionalProperties', 'oneOf', 'anyOf', 'minItems', 'maxItems', 'uniqueItems']) {
      expect(seen, `mutation kind ${k}`).toContain(k);
    }
  });

  it('labels a dropped required member at the object, as ajv does', () => {
    const g = compileSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    const dropped = g.sampleNearValid(100, 5).find((s) => s.label.keyword === 'required');
    expect(dropped).toBeDefined();
    expect(dropped!.label.path).toBe('');
    expect(dropped!.value).toEqual({});
  });

  it('has no near-valid values for a schema that accepts everything', () => {
    const g = compileSchema({});
    expect(g.canBreak).toBe(false);
    expect(() => g.nearValid(new Rng(1))).toThrow(NotMutableError);
  });

  it('generates from patterns and length bounds', () => {
    const g = compileSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2,4}$' }, short: { type: 'string', minLength: 3, maxLength: 5 } }, required: ['code', 'short'] });
    for (const v of g.sample(500, 9)) expect(g.validate(v), JSON.stringify(v)).toBe(true);
  });
});

describe('determinism', () => {
  const doc = loadSchema('2026-07-28');

  it('gives the same values for the same seed, whatever was drawn before', () => {
    const a = compileDefinition(doc, 'CallToolRequest', { specVersion: '2026-07-28' });
    const first = JSON.stringify([a.sample(50, 7), a.sampleNearValid(50, 8)]);
    a.sample(123, 99); // unrelated draws in between
    a.sampleNearValid(17, 98);
    expect(JSON.stringify([a.sample(50, 7), a.sampleNearValid(50, 8)])).toBe(first);
    expect(JSON.stringify(a.sample(50, 70))).not.toBe(JSON.stringify(a.sample(50, 7)));
  });

  it('gives the same values from a separately compiled generator of an equal schema', () => {
    const schema = JSON.parse(JSON.stringify(kitchenSink));
    const a = compileSchema(kitchenSink);
    const b = compileSchema(schema);
    expect(JSON.stringify(b.sample(100, 3))).toBe(JSON.stringify(a.sample(100, 3)));
    expect(JSON.stringify(b.sampleNearValid(100, 3))).toBe(JSON.stringify(a.sampleNearValid(100, 3)));
  });

  it('replays by fast-check seed through the arbitrary wrappers', () => {
    const g = compileDefinition(doc, 'JSONRPCRequest', { specVersion: '2026-07-28' });
    const once = fc.sample(g.validArbitrary(), { numRuns: 20, seed: 5 });
    expect(fc.sample(g.validArbitrary(), { numRuns: 20, seed: 5 })).toEqual(once);
    const near = fc.sample(g.nearValidArbitrary(), { numRuns: 20, seed: 6 });
    expect(fc.sample(g.nearValidArbitrary(), { numRuns: 20, seed: 6 })).toEqual(near);
  });

  it('draws integers uniformly inside the asked range', () => {
    const r = new Rng(1);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[r.int(4)]++;
    for (const c of counts) expect(c).toBeGreaterThan(800);
    for (let i = 0; i < 1000; i++) {
      const x = r.range(-(2 ** 40), 2 ** 40);
      expect(Number.isSafeInteger(x) && x >= -(2 ** 40) && x <= 2 ** 40).toBe(true);
      const f = r.float();
      expect(f >= 0 && f < 1).toBe(true);
    }
  });
});
