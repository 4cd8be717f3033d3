// The build-time validators (npm test builds first): current sets are used, agree with runtime
// compilation, and a set built from other schema text is ignored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../protocol/package-root.js';
import { precompiledMeta, precompiledSet } from '../protocol/precompiled-validators.js';
import { loadSchema, schemaFromObject } from '../protocol/schema-registry.js';

const text = readFileSync(join(packageRoot(), 'fixtures', 'schemas', 'mcp-2025-11-25.schema.json'), 'utf8');

describe('precompiled validators', () => {
  it('a current set answers for every definition, and loadSchema uses it', () => {
    const set = precompiledSet('2025-11-25', text);
    expect(set).toBeDefined();
    const names = loadSchema('2025-11-25').definitions();
    expect(names.every((n) => typeof set!(n) === 'function')).toBe(true);
    expect(loadSchema('2025-11-25').validator('CallToolResult')).toBe(set!('CallToolResult'));
  });

  it('a set built from other text is ignored', () => {
    expect(precompiledSet('2025-11-25', `${text} `)).toBeUndefined();
  });

  it('agrees with a runtime-compiled validator on valid and invalid messages', () => {
    const runtime = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false });
    runtime.addSchema({ ...JSON.parse(text), $id: 'urn:test:mcp' }, 'urn:test:mcp');
    const samples: [string, unknown][] = [
      ['JSONRPCMessage', { jsonrpc: '2.0', id: 1, method: 'ping' }],
      ['JSONRPCMessage', { jsonrpc: '2.0', id: true }],
      ['CallToolResult', { content: [{ type: 'text', text: 'x' }] }],
      ['CallToolResult', { content: [{ type: 'text' }] }],
      ['InitializeResult', { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'n', version: '1' } }],
      ['InitializeResult', { protocolVersion: 1, capabilities: {} }],
    ];
    const doc = loadSchema('2025-11-25');
    for (const [def, value] of samples) {
      const expected = runtime.getSchema(`urn:test:mcp#/$defs/${def}`)!(value);
      expect(doc.validate(def, value).valid, `${def} ${JSON.stringify(value)}`).toBe(expected);
    }
  });

  it('tool schemas are checked against the precompiled meta-schema with ajv’s wording', () => {
    expect(precompiledMeta('2020-12')).toBeDefined();
    expect(precompiledMeta('draft-07')).toBeDefined();
    const bad = schemaFromObject({ type: 'object', properties: { n: { minimum: '5' } } });
    expect(() => bad.validatorForNodes([bad.root])).toThrow(/^schema is invalid: data\/properties\/n\/minimum must be number/);
    const good = schemaFromObject({ type: 'object', properties: { n: { type: 'integer', minimum: 5 } }, required: ['n'] });
    const v = good.validatorForNodes([good.root]);
    expect([v({ n: 5 }), v({ n: 4 }), v({})]).toEqual([true, false, false]);
  });

  it('documents claiming the same $id stay apart', () => {
    const a = schemaFromObject({ $id: 'https://example.com/same', type: 'string' });
    const b = schemaFromObject({ $id: 'https://example.com/same', type: 'number' });
    expect([a.validatorForNodes([a.root])(3), b.validatorForNodes([b.root])(3)]).toEqual([false, true]);
  });
});
