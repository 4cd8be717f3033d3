// tools.schema-dialect (TE-04, SEP-2106): keywords a tool schema's dialect ignores where they stand.
import { describe, expect, it } from 'vitest';
import { judgeSchemaDialect } from '../../suites/tools/checks.js';
import { dialectOf, ignoredKeywords } from '../../suites/tools/schema-dialect.js';

const D2020 = 'https://json-schema.org/draft/2020-12/schema';
const D07 = 'http://json-schema.org/draft-07/schema#';
const rich = (over: Record<string, unknown> = {}) => ({
  $schema: D2020,
  type: 'object',
  $defs: { place: { $anchor: 'place', type: 'object', properties: { line: { type: 'string' } } } },
  properties: { to: { $ref: '#/$defs/place' }, by: { enum: ['courier', 'post'] }, tags: { type: 'array', prefixItems: [{ type: 'string' }] } },
  allOf: [{ anyOf: [{ required: ['to'] }, { required: ['by'] }] }],
  if: { properties: { by: { const: 'courier' } } },
  then: { required: ['to'] },
  else: { dependentRequired: { to: ['by'] } },
  additionalProperties: false,
  ...over,
});

describe('dialectOf', () => {
  it('2020-12 when no $schema, older for draft-04/06/07, undefined for what it does not know', () => {
    expect(dialectOf({ type: 'object' })).toBe('2020-12');
    expect(dialectOf({ $schema: D2020 })).toBe('2020-12');
    expect(dialectOf({ $schema: D07 })).toBe('older');
    expect(dialectOf({ $schema: 'https://example.com/own' })).toBeUndefined();
    expect(dialectOf({ $schema: 5 })).toBeUndefined();
  });
});

describe('ignoredKeywords', () => {
  it('a 2020-12 schema using the whole vocabulary has none', () => {
    expect(ignoredKeywords(rich())).toEqual([]);
    expect(ignoredKeywords(rich({ $schema: undefined }))).toEqual([]);
  });
  it('relabelled draft-07, its 2020-12 keywords are ignored wherever they are', () => {
    expect(ignoredKeywords(rich({ $schema: D07 })).map((k) => `${k.pointer} ${k.keyword}`).sort()).toEqual(['/$defs/place/$anchor $anchor', '/else/dependentRequired dependentRequired', '/properties/tags/prefixItems prefixItems']);
  });
  it('draft-07 keywords under 2020-12, and then/else without if', () => {
    const { if: _if, ...noIf } = rich();
    expect(ignoredKeywords(noIf).map((k) => k.pointer)).toEqual(['/then', '/else']);
    expect(ignoredKeywords({ type: 'object', properties: { xs: { type: 'array', items: { type: 'string' }, additionalItems: false } }, dependencies: { a: ['b'] } }).map((k) => k.keyword)).toEqual(['dependencies', 'additionalItems']);
  });
  it('values that are data are not walked: a "then" inside enum, const or default is no keyword', () => {
    expect(ignoredKeywords({ type: 'object', properties: { x: { enum: [{ then: 1 }], default: { additionalItems: 1 }, const: { else: 2 } } } })).toEqual([]);
  });
});

describe('tools.schema-dialect judge', () => {
  it('warns naming tool, schema and pointer; passes clean lists; untestable with no tools', () => {
    const j = judgeSchemaDialect([{ name: 'ok', inputSchema: rich() }, { name: 'add', inputSchema: rich({ $schema: D07 }), outputSchema: { type: 'object', then: {} } }]);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/^4 keyword\(s\).*first: add\.inputSchema\/else\/dependentRequired: a 2020-12 keyword under http:\/\/json-schema\.org\/draft-07\/schema#/);
    expect(judgeSchemaDialect([{ name: 'out', inputSchema: rich(), outputSchema: { type: 'object', then: {} } }]).message).toContain('first: out.outputSchema/then: "then" without "if"');
    expect(judgeSchemaDialect([{ name: 'ok', inputSchema: rich(), outputSchema: { type: 'object' } }])).toMatchObject({ outcome: 'holds', message: '2 schemas of 1 tools: every keyword belongs to the schema\'s dialect' });
    expect(judgeSchemaDialect([]).outcome).toBe('untestable');
  });
});
