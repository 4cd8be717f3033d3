import { describe, expect, it } from 'vitest';
import { retiredOrUnassigned } from '../../suites/messages/jsonrpc-checks.js';

describe('jsonrpc.error-codes: the 2026-07-28 error-code registry', () => {
  it('allows the JSON-RPC codes, the MCP codes 2026-07-28 defines, and application codes outside the reserved range', () => {
    for (const code of [-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022, -31999, 1, 42]) expect(retiredOrUnassigned(code)).toBeUndefined();
  });
  it('refuses the retired -32002 and -32042, and undefined codes of -32020..-32099', () => {
    expect(retiredOrUnassigned(-32042)).toContain('retired');
    expect(retiredOrUnassigned(-32002)).toContain('retired');
    expect(retiredOrUnassigned(-32050)).toContain('reserved for the MCP spec');
    expect(retiredOrUnassigned(-32099)).toContain('reserved');
  });
});
