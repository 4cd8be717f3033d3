import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';

const oracle = CHECKS.find((c) => c.id === 'meta.capability-error')!;
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

function refused(declared: unknown, data: unknown, status = 400, code = -32021): Exchange {
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', _meta: { [CAPS]: declared } } };
  const response = { jsonrpc: '2.0', id: 1, error: { code, message: 'needs it', data } };
  return { id: 1, method: 'tools/call', request, response, messages: [response], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 10_000, seq: [1, 2], http: { status, headers: {}, body: '' } };
}
const judge = (exchanges: Exchange[], transport: 'http' | 'stdio' = 'http') =>
  oracle.judge({ exchanges, events: [], version: '2026-07-28', transport, deliberate: () => false }, { era: 'modern', version: '2026-07-28', transport, capabilities: {} });

describe('meta.capability-error (MT-05, HM-12)', () => {
  it('holds for -32021 naming what was not declared, also a sub-capability of a declared one', () => {
    expect(judge([refused({}, { requiredCapabilities: { elicitation: {} } })]).outcome).toBe('holds');
    expect(judge([refused({ elicitation: { form: {} } }, { requiredCapabilities: { elicitation: { url: {} } } })]).outcome).toBe('holds');
  });

  it('fails a -32021 that names nothing, names what the request declared, or comes without HTTP 400', () => {
    expect(judge([refused({}, undefined)])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('naming no capability') });
    expect(judge([refused({}, { requiredCapabilities: {} })]).outcome).toBe('violated');
    expect(judge([refused({ sampling: {} }, { requiredCapabilities: { sampling: {} } })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('which the request declared') });
    expect(judge([refused({}, { requiredCapabilities: { roots: {} } }, 200)])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 200') });
    // Over stdio there is no status to judge.
    expect(judge([refused({}, { requiredCapabilities: { roots: {} } }, 200)], 'stdio').outcome).toBe('holds');
  });

  it('fails a refusal naming data.requiredCapabilities under another code (MT-05: it is -32021)', () => {
    expect(judge([refused({}, { requiredCapabilities: { elicitation: {} } }, 400, -32602)], 'stdio')).toMatchObject({ outcome: 'violated', message: expect.stringContaining('got -32602 naming data.requiredCapabilities') });
  });

  it('is untestable when nothing was refused with -32021, and an error with no requiredCapabilities is none of its business', () => {
    expect(judge([]).outcome).toBe('untestable');
    expect(judge([refused({}, { other: 1 }, 400, -32602)]).outcome).toBe('untestable');
  });
});
