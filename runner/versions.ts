// Protocol versions mcpspec speaks, split by era (V26 terminology), and the identity it sends.

export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type SpecVersion = ModernVersion | '2025-11-25' | '2025-06-18';

export const DEFAULT_MODERN_VERSION: ModernVersion = '2026-07-28';
export const DEFAULT_LEGACY_VERSION: LegacyVersion = '2025-11-25';

export interface ClientInfo {
  name: string;
  version: string;
  [k: string]: unknown;
}

/** Sent as clientInfo (legacy) or `io.modelcontextprotocol/clientInfo` (modern). */
export const MCPSPEC_CLIENT_INFO: ClientInfo = { name: 'mcpspec', version: '0.1.0' };

export function isModernVersion(v: string): v is ModernVersion {
  return (MODERN_VERSIONS as readonly string[]).includes(v);
}

export function isLegacyVersion(v: string): v is LegacyVersion {
  return (LEGACY_VERSIONS as readonly string[]).includes(v);
}

/** Reserved `_meta` keys of the modern era (B26 / SCH26 RequestMetaObject). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
