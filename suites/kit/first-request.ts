// The request a client sends first over Streamable HTTP, as plain HTTP (the handshake of the judged
// version): what the sessionless scenarios send to see how the endpoint treats a newcomer.

import { MCPSPEC_INFO, modernMeta } from '../../protocol/meta.js';
import { isModernVersion, type SpecVersion } from '../../protocol/versions.js';

/** A request a client sends first: the handshake of the judged version, with the given id. */
export function firstRequest(version: SpecVersion, id: string): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (isModernVersion(version)) {
    const body = { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta(version) } };
    return { body: JSON.stringify(body), headers: { ...headers, 'MCP-Protocol-Version': version, 'Mcp-Method': 'server/discover' } };
  }
  const body = { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: MCPSPEC_INFO } };
  return { body: JSON.stringify(body), headers };
}
