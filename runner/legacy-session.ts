// Legacy era (2025-11-25 and earlier, LC25): an `initialize` handshake fixes version and
// capabilities for the life of the connection; `notifications/initialized` completes it (LC-05).
// On HTTP the session id and MCP-Protocol-Version header then ride on every request (HL-07/08).

import { BaseSession, handshakeFailure } from './base-session.js';
import { HttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';
import {
  DEFAULT_LEGACY_VERSION,
  MCPSPEC_CLIENT_INFO,
  isLegacyVersion,
  type LegacyVersion,
} from './versions.js';
import type { Exchange, NotifyOptions, RequestOptions, ServerInfo, SessionOptions } from './session-types.js';

export interface LegacySessionOptions extends SessionOptions {
  version?: LegacyVersion;
  /** Client capabilities offered in initialize. Default `{}`. */
  capabilities?: Record<string, unknown>;
  /** Leave out `notifications/initialized` (a scenario probes the gap); call `sendInitialized()` later. */
  skipInitialized?: boolean;
}

export class LegacySession extends BaseSession {
  readonly era = 'legacy' as const;
  /** The version mcpspec asked for (the server may have answered another one). */
  readonly requestedVersion: string;
  initialized = false;

  constructor(transport: Transport, requestedVersion: string, timeoutMs: number | undefined) {
    super(transport, requestedVersion, timeoutMs);
    this.requestedVersion = requestedVersion;
  }

  protected buildParams(
    _method: string,
    params: Record<string, unknown> | undefined,
    _opts: RequestOptions,
  ): Record<string, unknown> | undefined {
    return params;
  }

  /** LC-05: tells the server the client is ready. Sent automatically unless `skipInitialized`. */
  async sendInitialized(opts: NotifyOptions = {}): Promise<Exchange> {
    const ex = await this.notify('notifications/initialized', undefined, { quietMs: 100, ...opts });
    this.initialized = true;
    return ex;
  }
}

/** Open a legacy session on `transport` (opened here if needed). Throws HandshakeError if initialize fails. */
export async function openLegacySession(transport: Transport, opts: LegacySessionOptions = {}): Promise<LegacySession> {
  const requested = opts.version ?? DEFAULT_LEGACY_VERSION;
  await transport.open();
  const session = new LegacySession(transport, requested, opts.timeoutMs);
  if (transport instanceof HttpTransport) {
    // A fresh legacy session: no leftover id or modern headers from a probe.
    transport.setSessionId(undefined);
    transport.setProtocolVersionHeader(undefined);
    transport.setModernHeaders(false);
  }
  const ex = await session.request('initialize', {
    protocolVersion: requested,
    capabilities: opts.capabilities ?? {},
    clientInfo: opts.clientInfo ?? MCPSPEC_CLIENT_INFO,
  });
  session.handshake = ex;
  const failure = handshakeFailure(ex, 'initialize', session.timeoutMs, transport);
  if (failure) throw failure;

  const result = (ex.response as { result: Record<string, unknown> }).result;
  const answered = result.protocolVersion;
  if (typeof answered === 'string') {
    session.version = answered;
    if (!isLegacyVersion(answered)) {
      // LC-03 allows any version; LC-04 says a client that cannot speak it should disconnect.
      // We keep going so the report can show what happened, and leave a note.
      transport.recorder.note(transport.kind, 'unknown-version', `server answered protocolVersion ${answered}, which mcpspec does not speak`, {
        requested,
        answered,
      });
    }
  } else {
    transport.recorder.note(transport.kind, 'unknown-version', 'initialize result has no protocolVersion string', { requested });
  }
  if (typeof result.capabilities === 'object' && result.capabilities !== null) {
    session.capabilities = result.capabilities as Record<string, unknown>;
  }
  if (typeof result.serverInfo === 'object' && result.serverInfo !== null) {
    session.serverInfo = result.serverInfo as ServerInfo;
  }
  if (typeof result.instructions === 'string') session.instructions = result.instructions;

  if (transport instanceof HttpTransport) transport.setProtocolVersionHeader(session.version);
  if (!opts.skipInitialized) await session.sendInitialized();
  return session;
}
