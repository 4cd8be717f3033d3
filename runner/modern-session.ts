// Modern era (2026-07-28, SEP-2575): no handshake state. Every request carries its version,
// capabilities and identity in `params._meta` (MT-01/MT-03); on HTTP the version also goes in
// MCP-Protocol-Version and the method/name are mirrored into Mcp-Method / Mcp-Name (HM-06/HM-08).
// `server/discover` (D26) serves as the handshake so suites get capabilities and identity.

import { BaseSession, handshakeFailure } from './base-session.js';
import { HttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';
import {
  DEFAULT_MODERN_VERSION,
  MCPSPEC_CLIENT_INFO,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  type ClientInfo,
  type ModernVersion,
} from './versions.js';
import { HandshakeError, type RequestOptions, type ServerInfo, type SessionOptions } from './session-types.js';

export interface ModernSessionOptions extends SessionOptions {
  version?: ModernVersion;
  /** Declared on every request as `io.modelcontextprotocol/clientCapabilities`. Default `{}`. */
  clientCapabilities?: Record<string, unknown>;
}

/** The standard per-request `_meta` keys. */
export function modernMeta(
  version: string,
  clientInfo: ClientInfo = MCPSPEC_CLIENT_INFO,
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    [META_PROTOCOL_VERSION]: version,
    [META_CLIENT_CAPABILITIES]: clientCapabilities,
    [META_CLIENT_INFO]: clientInfo,
  };
}

/**
 * Build modern params: the auto `_meta` (or a replacement, or none), merged with the caller's own
 * `params._meta`, then `metaOverrides` (where `undefined` deletes a key).
 */
export function withModernMeta(
  params: Record<string, unknown> | undefined,
  auto: Record<string, unknown>,
  opts: Pick<RequestOptions, 'meta' | 'metaOverrides'> = {},
): Record<string, unknown> {
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

export class ModernSession extends BaseSession {
  readonly era = 'modern' as const;
  /** `supportedVersions` from server/discover. */
  supportedVersions: string[] = [];
  private readonly autoMeta: Record<string, unknown>;

  constructor(
    transport: Transport,
    version: string,
    timeoutMs: number | undefined,
    clientInfo: ClientInfo,
    clientCapabilities: Record<string, unknown>,
  ) {
    super(transport, version, timeoutMs);
    this.autoMeta = modernMeta(version, clientInfo, clientCapabilities);
  }

  /** The `_meta` every request gets by default (a copy). */
  defaultMeta(): Record<string, unknown> {
    return structuredClone(this.autoMeta);
  }

  protected buildParams(
    _method: string,
    params: Record<string, unknown> | undefined,
    opts: RequestOptions,
  ): Record<string, unknown> {
    return withModernMeta(params, structuredClone(this.autoMeta), opts);
  }
}

/** Open a modern session: call server/discover. Throws HandshakeError if it fails or the version is refused. */
export async function openModernSession(transport: Transport, opts: ModernSessionOptions = {}): Promise<ModernSession> {
  const version = opts.version ?? DEFAULT_MODERN_VERSION;
  await transport.open();
  const session = new ModernSession(
    transport,
    version,
    opts.timeoutMs,
    opts.clientInfo ?? MCPSPEC_CLIENT_INFO,
    opts.clientCapabilities ?? {},
  );
  if (transport instanceof HttpTransport) {
    transport.setSessionId(undefined); // HTTP sessions do not exist in this era (SEP-2567)
    transport.setProtocolVersionHeader(version);
    transport.setModernHeaders(true);
  }
  const ex = await session.request('server/discover');
  session.handshake = ex;
  const err = (ex.response as { error?: { code?: unknown; data?: { supported?: unknown } } } | undefined)?.error;
  if (err?.code === -32022) {
    const supported = Array.isArray(err.data?.supported) ? (err.data?.supported as unknown[]).join(', ') : 'not listed';
    throw new HandshakeError(`server does not support protocol version ${version} (it supports: ${supported})`, ex);
  }
  const failure = handshakeFailure(ex, 'server/discover', session.timeoutMs, transport);
  if (failure) throw failure;

  const result = (ex.response as { result: Record<string, unknown> }).result;
  if (Array.isArray(result.supportedVersions)) {
    session.supportedVersions = result.supportedVersions.filter((v): v is string => typeof v === 'string');
    if (!session.supportedVersions.includes(version)) {
      transport.recorder.note(
        transport.kind,
        'unknown-version',
        `server/discover lists ${session.supportedVersions.join(', ') || 'no versions'}, not ${version}`,
        { requested: version, supported: session.supportedVersions },
      );
    }
  }
  if (typeof result.capabilities === 'object' && result.capabilities !== null) {
    session.capabilities = result.capabilities as Record<string, unknown>;
  }
  if (typeof result.instructions === 'string') session.instructions = result.instructions;
  const meta = result._meta as Record<string, unknown> | undefined;
  const info = meta?.[META_SERVER_INFO];
  if (typeof info === 'object' && info !== null) session.serverInfo = info as ServerInfo;
  return session;
}
