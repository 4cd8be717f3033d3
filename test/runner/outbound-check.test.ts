import { describe, expect, it } from 'vitest';
import { outboundProblems } from '../../runner/outbound-check.js';
import type { Exchange } from '../../suites/ports/session.js';

const ex = (request: Record<string, unknown>): Exchange => ({ request, method: request.method as string }) as unknown as Exchange;

describe('outbound check: mcpspec does not blame a target for its own malformed requests', () => {
  const good = ex({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
  const bad = ex({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } }); // no name

  it('flags a request that breaks its definition, once', () => {
    const problems = outboundProblems([good, bad, bad], () => false, '2025-11-25');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/invalid tools\/call \(CallToolRequest\)/);
  });

  it('leaves valid and deliberately malformed requests alone', () => {
    expect(outboundProblems([good], () => false, '2025-11-25')).toEqual([]);
    expect(outboundProblems([good, bad], (e) => e === bad, '2025-11-25')).toEqual([]);
  });
});
