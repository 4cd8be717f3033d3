import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';

const shape = CHECKS.find((c) => c.id === 'mrtr.shape')!;
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { roots: {}, elicitation: {} } };

/** A tools/call answered with `raw` (an input_required result), as the run records it. */
function answered(raw: string): { ex: Exchange; events: WireEvent[] } {
  const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', _meta: META } };
  const response = JSON.parse(raw) as Record<string, unknown>;
  const ex: Exchange = { id: 7, method: 'tools/call', request, response, messages: [response], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1, 2] };
  const events = [
    { seq: 1, t: 0, dir: 'out', channel: 'stdio', kind: 'message', raw: JSON.stringify(request), message: request },
    { seq: 2, t: 1, dir: 'in', channel: 'stdio', kind: 'message', raw, message: response },
  ] as WireEvent[];
  return { ex, events };
}
const judge = ({ ex, events }: { ex: Exchange; events: WireEvent[] }) =>
  shape.judge({ exchanges: [ex], events, version: '2026-07-28', transport: 'stdio', deliberate: () => false } as never, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });

describe('mrtr.shape: each inputRequests key named once (IR-03)', () => {
  const roots = '{"method":"roots/list"}';
  const form = '{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{}}}}';
  it('holds for distinct keys', () => {
    expect(judge(answered(`{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"a":${roots},"b":${form}}}}`)).outcome).toBe('holds');
  });
  it('fails a key named twice in the text, which the parsed result cannot show', () => {
    const j = judge(answered(`{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"a":${roots},"a":${form}}}}`));
    expect(j).toMatchObject({ outcome: 'violated', message: expect.stringContaining('names the key "a" twice') });
  });
  it('a repeat elsewhere in the message is not this rule', () => {
    expect(judge(answered(`{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list","params":{},"params":{}}}}}`)).outcome).toBe('holds');
  });
});
