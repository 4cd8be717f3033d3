// `_meta` keys under the prefixes MCP reserves (MT-10): a prefix whose second label is
// `modelcontextprotocol` or `mcp`. Only the specification and official extensions define keys there.

/** The reserved keys some MCP version or official extension defines (and official extension ids). */
export const DEFINED_RESERVED_KEYS: ReadonlySet<string> = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/serverInfo',
  'io.modelcontextprotocol/logLevel',
  'io.modelcontextprotocol/subscriptionId',
  // The tasks extension (both flavours) and the 2025-11-25 tasks utility.
  'io.modelcontextprotocol/tasks',
  'io.modelcontextprotocol/related-task',
  'io.modelcontextprotocol/model-immediate-response',
  // MCP Apps and the authorization extensions.
  'io.modelcontextprotocol/ui',
  'io.modelcontextprotocol/apps',
  'io.modelcontextprotocol/oauth-client-credentials',
  'io.modelcontextprotocol/enterprise-managed-authorization',
]);

export function isReservedMetaKey(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const second = key.slice(0, slash).split('.')[1];
  return second === 'modelcontextprotocol' || second === 'mcp';
}

/**
 * A reserved key nothing defines. `declared`: extension ids the sender declared (an extension
 * mcpspec does not know may define its own key, named by its id).
 */
export function undefinedReservedKey(key: string, declared: ReadonlySet<string> = new Set()): boolean {
  return isReservedMetaKey(key) && !DEFINED_RESERVED_KEYS.has(key) && !declared.has(key);
}
