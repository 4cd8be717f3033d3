// Reserved `_meta` keys and the per-request metadata of the modern era (B26, SCH26 RequestMetaObject).

import { TOOL_VERSION } from './tool-version.js';

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export interface Implementation {
  name: string;
  version: string;
  [k: string]: unknown;
}

/** Who mcpspec says it is: clientInfo (legacy) or `io.modelcontextprotocol/clientInfo` (modern), and serverInfo when it plays a server. */
export const MCPSPEC_INFO: Implementation = { name: 'mcpspec', version: TOOL_VERSION };

/** The standard per-request `_meta` (MT-01, MT-03). */
export function modernMeta(
  version: string,
  clientCapabilities: Record<string, unknown> = {},
  clientInfo: Implementation = MCPSPEC_INFO,
): Record<string, unknown> {
  return {
    [META_PROTOCOL_VERSION]: version,
    [META_CLIENT_CAPABILITIES]: clientCapabilities,
    [META_CLIENT_INFO]: clientInfo,
  };
}

export interface MetaOptions {
  /** 'auto' (default) = the standard keys; an object replaces them; 'none' sends no `_meta`. */
  meta?: 'auto' | 'none' | Record<string, unknown>;
  /** Merged into the `_meta` last; a value `undefined` deletes that key (MT-02 tests). */
  metaOverrides?: Record<string, unknown | undefined>;
}

/**
 * Modern params: the standard `_meta` (or a replacement, or none), merged with the caller's own
 * `params._meta`, then `metaOverrides` (where `undefined` deletes a key).
 */
export function withModernMeta(params: Record<string, unknown> | undefined, auto: Record<string, unknown>, opts: MetaOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(params ?? {}) };
  const callerMeta = out._meta;
  delete out._meta;
  if (opts.meta === 'none') return out;
  const meta: Record<string, unknown> = {
    ...(typeof opts.meta === 'object' ? opts.meta : auto),
    ...(typeof callerMeta === 'object' && callerMeta !== null ? (callerMeta as Record<string, unknown>) : {}),
  };
  for (const [k, v] of Object.entries(opts.metaOverrides ?? {})) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  out._meta = meta;
  return out;
}
