import { describe, expect, it } from 'vitest';
import { isNotification, isStrictNotification } from '../../protocol/jsonrpc.js';

describe('isStrictNotification: what JR-07 says must go unanswered', () => {
  it('a notification with or without structured params', () => {
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(true);
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', params: {} })).toBe(true);
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', params: [1] })).toBe(true);
  });
  it('not with an id, another jsonrpc, a missing method or params that are not structured', () => {
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', id: 1 })).toBe(false);
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', id: null })).toBe(false);
    expect(isStrictNotification({ jsonrpc: '1.0', method: 'x' })).toBe(false);
    expect(isStrictNotification({ jsonrpc: '2.0' })).toBe(false);
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', params: 'p' })).toBe(false);
    expect(isStrictNotification({ jsonrpc: '2.0', method: 'x', params: null })).toBe(false);
  });
  it('not with a member JSON-RPC does not define (a server may refuse it as an Invalid Request), though routing still calls it one', () => {
    const extra = { jsonrpc: '2.0', method: 'resources/templates/list', params: {}, 'x-extra': null };
    expect(isStrictNotification(extra)).toBe(false);
    expect(isNotification(extra)).toBe(true);
  });
});
