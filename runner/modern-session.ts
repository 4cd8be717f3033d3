// Modern era (2026-07-28, SEP-2575): no handshake state. Every request carries its version,
// capabilities and identity in `params._meta` (MT-01/MT-03); on HTTP the version also goes in
// MCP-Protocol-Version and the method/name are mirrored into Mcp-Method / Mcp-Name (HM-06/HM-08).
// `server/discover` (D26) serves as the handshake so scenarios get capabilities and identity.

import { META_SERVER_INFO, MCPSPEC_INFO, modernMeta, withModernMeta, type Implementation } from '../protocol/meta.js';
import { DEFAULT_MODERN_VERSION, type ModernVersion } from '../protocol/versions.js';
import type { RequestOptions } from '../suites/ports/session.js';
import { BaseSession, HandshakeError, handshakeFailure, type SessionOptions } from './base-session.js';
import { HttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

export interface ModernSessionOptions extends SessionOptions {
  version?: ModernVersion;
  /** Declared on every request as `io.modelcontextprotocol/clientCapabilities`. Default `{}`. */
  clientCapabilities?: Record<string, unknown>;
}

export class ModernSession extends BaseSession {
  readonly era = 'modern' as const;
  /** `supportedVersions` from server/discover. */
  supportedVersions: string[] = [];
  private readonly autoMeta: Record<string, unknown>;

  constructor(transport: Transport, version: string, opts: ModernSessionOptions) {
    super(transport, version, opts);
    this.autoMeta = modernMeta(version, opts.clientCapabilities ?? {}, opts.clientInfo ?? MCPSPEC_INFO);
  }

  override defaultMeta(): Record<string, unknown> {
    return structuredClone(this.autoMeta);
  }

  protected buildParams(_method: string, params: Record<string, unknown> | undefined, opts: RequestOptions): Record<string, unknown> {
    return withModernMeta(params, structuredClone(this.autoMeta), opts);
  }

  protected fenceMethod(): string {
    return 'server/discover';
  }
}

/** Open a modern session: call server/discover. Throws HandshakeError if it fails or the version is refused. */
export async function openModernSession(transport: Transport, opts: ModernSessionOptions = {}): Promise<ModernSession> {
  const version = opts.version ?? DEFAULT_MODERN_VERSION;
  await transport.open();
  const session = new ModernSession(transport, version, opts);
  if (transport instanceof HttpTransport) {
    transport.setSessionId(undefined); // HTTP sessions do not exist in this era (SEP-2567)
    transport.setProtocolVersionHeader(version);
    transport.setModernHeaders(true);
  }
  const ex = await session.request('server/discover', undefined, { timeoutMs: opts.handshakeTimeoutMs });
  session.handshake = ex;
  const err = (ex.response as { error?: { code?: unknown; data?: { supported?: unknown } } } | undefined)?.error;
  if (err?.code === -32022) {
    const supported = Array.isArray(err.data?.supported) ? (err.data?.supported as unknown[]).join(', ') : 'not listed';
    throw new HandshakeError(`server does not support protocol version ${version} (it supports: ${supported})`, ex);
  }
  const failure = handshakeFailure(ex, 'server/discover', transport);
  if (failure) throw failure;

  const result = (ex.response as { result: Record<string, unknown> }).result;
  if (Array.isArray(result.supportedVersions)) {
    session.supportedVersions = result.supportedVersions.filter((v): v is string => typeof v === 'string');
    if (!session.supportedVersions.includes(version)) {
      transport.recorder.note(transport.kind, 'unknown-version', `server/discover lists ${session.supportedVersions.join(', ') || 'no versions'}, not ${version}`, { requested: version, supported: session.supportedVersions });
    }
  }
  if (typeof result.capabilities === 'object' && result.capabilities !== null) session.capabilities = result.capabilities as Record<string, unknown>;
  if (typeof result.instructions === 'string') session.instructions = result.instructions;
  const meta = result._meta as Record<string, unknown> | undefined;
  const info = meta?.[META_SERVER_INFO];
  if (typeof info === 'object' && info !== null) session.serverInfo = info as Implementation;
  return session;
}
