// The judges of the client's JSON Schema 2020-12 and elicitation-form checks, on hand-made observations:
// client.no-network-ref (SEP-2106), client.elicitation-defaults (SEP-1034), client.elicitation-enum-values (SEP-1330).
import { describe, expect, it } from 'vitest';
import { allowedOf, defaultsOf, judgeDefaults, judgeEnumValues } from '../../suites/elicitation/client-checks.js';
import { FORM_SCHEMA, type FormObs } from '../../suites/elicitation/client-scenarios.js';
import type { Received } from '../../suites/ports/scripted-server.js';
import { judgeKeywordsKept, judgeNetworkRef, keywordsChanged } from '../../suites/tools/client-checks.js';
import { schemaTool } from '../../suites/tools/client-scenarios.js';

const CANARY = 'http://127.0.0.1:9/mcpspec-canary/profile.schema.json';

describe('client.no-network-ref', () => {
  it('the listed tool carries a same-document $ref and the network one', () => {
    const s = schemaTool(CANARY).inputSchema as { properties: Record<string, { $ref?: string }> };
    expect(s.properties.to.$ref).toBe('#/$defs/place');
    expect(s.properties.label.$ref).toBe(CANARY);
  });
  it('fails on any request to the canary, listed or not', () => {
    const hit = { method: 'GET', path: '/mcpspec-canary/profile.schema.json', userAgent: 'node', at: 1 };
    const j = judgeNetworkRef({ canaryUrl: CANARY, hits: [hit], listed: [3] });
    expect(j.outcome).toBe('violated');
    expect(j.message).toContain('GET /mcpspec-canary/profile.schema.json');
    expect(judgeNetworkRef({ canaryUrl: CANARY, hits: [hit], listed: [] }).outcome).toBe('violated');
  });
  it('passes a client that listed the tool and fetched nothing; untestable when it never listed tools', () => {
    expect(judgeNetworkRef({ canaryUrl: CANARY, hits: [], listed: [3] }).outcome).toBe('holds');
    expect(judgeNetworkRef({ canaryUrl: CANARY, hits: [], listed: [] }).outcome).toBe('untestable');
  });
});

const received = (message: unknown, seq = 5): Received => ({ message, seq, connection: 1 });
const obs = (results: unknown[], asked = 1, undeclared = 0): FormObs =>
  ({
    exit: { exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '' },
    received: [],
    transport: 'stdio',
    log: { serverRequests: [], refused: [] },
    asked,
    undeclared,
    answers: results.map((result, i) => ({ where: `answer ${i}`, received: received({ jsonrpc: '2.0', id: `mcpspec-form-${i}`, result }), result, pointer: '/result' })),
  }) as FormObs;
const FULL = { nickname: 'Ada', seats: 2, budget: 20, tier: 'plus', newsletter: false, colour: 'red', size: 'm', seat: 'a', toppings: ['cheese', 'basil'], extras: ['card'] };

describe('the form', () => {
  it('has a default of every primitive type and an enum of every shape', () => {
    expect(defaultsOf(FORM_SCHEMA).map(([k, d]) => [k, typeof d])).toEqual([['nickname', 'string'], ['seats', 'number'], ['budget', 'number'], ['tier', 'string'], ['newsletter', 'boolean']]);
    const p = FORM_SCHEMA.properties;
    expect(allowedOf(p.colour)).toEqual({ multi: false, allowed: ['red', 'green', 'blue'] });
    expect(allowedOf(p.size)).toEqual({ multi: false, allowed: ['s', 'm', 'l'] });
    expect(allowedOf(p.seat)).toEqual({ multi: false, allowed: ['w', 'a'] });
    expect(allowedOf(p.toppings)).toEqual({ multi: true, allowed: ['cheese', 'olives', 'basil'] });
    expect(allowedOf(p.extras)).toEqual({ multi: true, allowed: ['bag', 'card'] });
    expect(allowedOf(p.nickname)).toBeUndefined();
  });
});

describe('client.elicitation-defaults', () => {
  it('passes accepted content with every defaulted field (changed values too: the user may edit them)', () => {
    expect(judgeDefaults(obs([{ action: 'accept', content: FULL }])).outcome).toBe('holds');
    expect(judgeDefaults(obs([{ action: 'accept', content: { ...FULL, seats: 4 } }])).outcome).toBe('holds');
  });
  it('warns on accepted content that leaves a defaulted field out, naming it', () => {
    const { nickname: _n, newsletter: _b, ...rest } = FULL;
    const j = judgeDefaults(obs([{ action: 'accept', content: rest }]));
    expect(j.outcome).toBe('violated');
    expect(j.message).toContain('nickname (default "Ada")');
    expect(j.message).toContain('newsletter (default false)');
  });
  it('warns on a defaulted field answered with a value of another type', () => {
    const j = judgeDefaults(obs([{ action: 'accept', content: { ...FULL, seats: 2.5, newsletter: 'false' } }]));
    expect(j.outcome).toBe('violated');
    expect(j.message).toContain('seats with 2.5, not an integer');
    expect(j.message).toContain('newsletter with "false", not a boolean');
  });
  it('is untestable without an accepted answer', () => {
    expect(judgeDefaults(obs([{ action: 'decline' }])).outcome).toBe('untestable');
    expect(judgeDefaults(obs([], 0)).message).toContain('no tools/call');
    expect(judgeDefaults(obs([], 0, 2)).message).toContain('declared no form-mode elicitation');
    expect(judgeDefaults(obs([], 1)).message).toContain('never answered');
  });
});

describe('client.elicitation-enum-values', () => {
  it('passes members of every shape', () => {
    const j = judgeEnumValues(obs([{ action: 'accept', content: FULL }]));
    expect(j.outcome).toBe('holds');
    expect(j.message).toMatch(/^6 enum answer/);
  });
  it('warns on a title or an enumNames label sent instead of the value, and on a multi-select that is not an array of members', () => {
    for (const bad of [{ size: 'Medium' }, { seat: 'Aisle' }, { colour: 'Red' }, { toppings: 'cheese' }, { toppings: ['cheese', 'ham'] }, { extras: ['Gift bag'] }, { tier: 'platinum' }]) {
      const j = judgeEnumValues(obs([{ action: 'accept', content: { ...FULL, ...bad } }]));
      expect(j.outcome, JSON.stringify(bad)).toBe('violated');
    }
  });
  it('is untestable when no enum field was answered', () => {
    expect(judgeEnumValues(obs([{ action: 'accept', content: { nickname: 'x' } }])).outcome).toBe('untestable');
    expect(judgeEnumValues(obs([{ action: 'cancel' }])).outcome).toBe('untestable');
  });
});

describe('client.schema-keywords-kept', () => {
  const listed = schemaTool(CANARY);
  const call = (name: string, schema: unknown) => received({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: { schema } } });
  const tools = [listed, { name: 'schema_echo' }];
  it('passes a schema passed back as listed, its keys in any order', () => {
    const reordered = Object.fromEntries(Object.entries(listed.inputSchema as object).reverse());
    expect(judgeKeywordsKept({ received: [call('schema_echo', reordered)], tools }).outcome).toBe('holds');
  });
  it('warns naming what was lost or altered', () => {
    const { $defs: _d, if: _i, ...rest } = listed.inputSchema as Record<string, unknown>;
    const j = judgeKeywordsKept({ received: [call('schema_echo', { ...rest, additionalProperties: true })], tools });
    expect(j.outcome).toBe('violated');
    expect(j.message).toContain('lost $defs, if; changed additionalProperties');
    expect(keywordsChanged({ a: 1 }, { a: 1, b: 2 })).toEqual({ lost: [], changed: [], added: ['b'] });
  });
  it('untestable when the client passes nothing back, or echoes a tool that was not listed', () => {
    expect(judgeKeywordsKept({ received: [], tools }).outcome).toBe('untestable');
    expect(judgeKeywordsKept({ received: [call('json_schema_echo', {})], tools }).outcome).toBe('untestable');
  });
});
