import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSchema, messages } from '../../arbitraries/index.js';

describe('messages()', () => {
  it('generates every 2026-07-28 client request with its exact method and the required _meta keys', () => {
    const m = messages('2026-07-28');
    const requests = m.methods({ kind: 'request', direction: 'client-to-server' });
    expect(requests.map((r) => r.method)).toEqual(expect.arrayContaining(['server/discover', 'tools/call', 'tools/list', 'subscriptions/listen']));
    for (const info of requests) {
      expect(info.embedded).toBe(false);
      for (const v of fc.sample(m.request(info.method).valid, { numRuns: 20, seed: 1 }) as any[]) {
        expect(v.method).toBe(info.method);
        expect(v.jsonrpc).toBe('2.0');
        expect(v.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
        expect(v.params._meta).toHaveProperty(['io.modelcontextprotocol/clientCapabilities']);
      }
    }
  });

  it('knows legacy methods, both directions, and results for requests', () => {
    const m = messages('2025-11-25');
    expect(m.info('initialize', 'request').resultDefinition).toBe('InitializeResult');
    expect(m.info('ping', 'request').resultDefinition).toBe('EmptyResult');
    expect(m.info('sampling/createMessage', 'request').direction).toBe('server-to-client');
    expect(m.info('notifications/initialized', 'notification').direction).toBe('client-to-server');
    const doc = loadSchema('2025-11-25');
    for (const r of fc.sample(m.result('tools/list').valid, 20)) expect(doc.validate('ListToolsResult', r).valid).toBe(true);
  });

  it('wraps results into JSON-RPC responses and moves the label under /result', () => {
    const m = messages('2026-07-28');
    const doc = loadSchema('2026-07-28');
    for (const r of fc.sample(m.response('tools/list').valid, 20)) expect(doc.validate('JSONRPCResultResponse', r).valid).toBe(true);
    for (const nv of fc.sample(m.response('tools/list').nearValid, 20)) expect(nv.label.path.startsWith('/result')).toBe(true);
  });

  it('names unknown methods with the known ones', () => {
    expect(() => messages('2026-07-28').request('initialize')).toThrow(/no request "initialize".*server\/discover/);
  });
});
