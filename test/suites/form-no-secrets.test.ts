import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import { secretFields, secretNamed, words } from '../../suites/elicitation/checks.js';
import type { Exchange } from '../../suites/ports/session.js';

const check = CHECKS.find((c) => c.id === 'elicitation.form-no-secrets')!;
const form = (properties: Record<string, unknown>, mode?: string) => ({ method: 'elicitation/create', params: { ...(mode ? { mode } : {}), message: 'Fill in', requestedSchema: { type: 'object', properties } } });

/** A modern tools/call answered with input_required asking `inputRequests`. */
function modern(inputRequests: Record<string, unknown>): Exchange {
  const response = { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests } };
  return { id: 1, method: 'tools/call', request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } }, response, messages: [response], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1, 2] } as Exchange;
}
/** A legacy elicitation/create request the server sent. */
const asked = (message: Record<string, unknown>): WireEvent => ({ seq: 3, t: 0, dir: 'in', channel: 'stdio', kind: 'message', raw: JSON.stringify(message), message }) as WireEvent;
const judge = (exchanges: Exchange[], events: WireEvent[] = []) =>
  check.judge({ exchanges, events, version: '2026-07-28', transport: 'stdio', deliberate: () => false } as never, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });

describe('elicitation.form-no-secrets (IR-17)', () => {
  it('splits names the way people write them', () => {
    expect(words('apiKey')).toEqual(['api', 'key']);
    expect(words('API_KEY')).toEqual(['api', 'key']);
    expect(words('OAuthAccessToken')).toEqual(['o', 'auth', 'access', 'token']);
    expect(secretNamed('Credit card number')).toBe('credit card');
    expect(secretNamed('secretary')).toBeUndefined();
    expect(secretNamed('tokenCount')).toBeUndefined();
    expect(secretNamed('keyboard layout')).toBeUndefined();
  });
  it('judges names and titles, not descriptions', () => {
    expect(secretFields({ properties: { pw: { type: 'string', title: 'Password' }, note: { type: 'string', description: 'do not paste a password here' } } })).toEqual([{ property: 'pw', secret: 'password' }]);
  });
  it('fails a form in an InputRequiredResult that asks for an API key', () => {
    const j = judge([modern({ confirm: form({ confirm: { type: 'boolean' }, apiKey: { type: 'string' } }) })]);
    expect(j).toMatchObject({ outcome: 'violated', message: expect.stringContaining('inputRequests.confirm asks for "apiKey" (api key)') });
  });
  it('fails a legacy elicitation/create with no mode (form implied) asking for a password', () => {
    const j = judge([], [asked({ jsonrpc: '2.0', id: 9, ...form({ password: { type: 'string' } }) })]);
    expect(j.outcome).toBe('violated');
  });
  it('URL mode may handle secrets; ordinary forms hold', () => {
    expect(judge([modern({ a: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/password' } }, b: form({ name: { type: 'string', title: 'Your name' } }, 'form') })]).outcome).toBe('holds');
  });
  it('is untestable when no form was asked', () => {
    expect(judge([modern({ r: { method: 'roots/list' } })]).outcome).toBe('untestable');
  });
});
