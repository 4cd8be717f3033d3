// Legacy era (2025-11-25 and earlier, LC25): an `initialize` handshake fixes version and
// capabilities for the life of the connection; `notifications/initialized` completes it (LC-05).
// On HTTP the session id and MCP-Protocol-Version header then ride on every request (HL-07/08).

import { MCPSPEC_INFO, type Implementation } from '../protocol/meta.js';
import { DEFAULT_LEGACY_VERSION, isLegacyVersion, type LegacyVersion } from '../protocol/versions.js';
import type { Exchange, RequestOptions } from '../suites/ports/session.js';
import { BaseSession, handshakeFailure, type SessionOptions } from './base-session.js';
import { HttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

export interface LegacySessionOptions extends SessionOptions {
  version?: LegacyVersion;
  /** Client capabilities offered in initialize. Default `{}`. */
  capabilities?: Record<string, unknown>;
  /** Leave out `notifications/initialized` (a scenario probes the gap); call `sendInitialized()` later. */
  skipInitialized?: boolean;
  /** HTTP: open the standalone GET stream (HL-05) before `notifications/initialized`, so what the server asks on it right after is heard. */
  standaloneStream?: boolean;
}

export class LegacySession extends BaseSession {
  readonly era = 'legacy' as const;
  /** The version mcpspec asked for (the server may have answered another one). */
  readonly requestedVersion: string;
  initialized = false;

  constructor(transport: Transport, requestedVersion: string, opts: SessionOptions) {
    super(transport, requestedVersion, opts);
    this.requestedVersion = requestedVersion;
  }

  protected buildParams(_method: string, params: Record<string, unknown> | undefined, _opts: RequestOptions): Record<string, unknown> | undefined {
    return params;
  }

  protected fenceMethod(): string {
    return 'ping';
  }

  /**
   * A view of `owner`, an open HTTP session, on another transport (so with its own recorder): the
   * same session id, version and capabilities, and request ids from the owner's counter. Nothing is
   * sent; closing the view leaves the session open for its owner to end.
   */
  static attach(owner: LegacySession, transport: HttpTransport, opts: SessionOptions): LegacySession {
    const id = owner.httpSessionId;
    if (id === undefined) throw new Error('only an HTTP session with a session id can be shared');
    transport.adoptSession(id, owner.version);
    const view = new LegacySession(transport, owner.requestedVersion, opts);
    view.ids = owner.ids;
    view.version = owner.version;
    view.capabilities = owner.capabilities;
    view.serverInfo = owner.serverInfo;
    view.instructions = owner.instructions;
    view.handshake = owner.handshake;
    view.initialized = owner.initialized;
    return view;
  }

  /** LC-05: tells the server the client is ready. Sent automatically unless `skipInitialized`. */
  async sendInitialized(): Promise<Exchange> {
    const ex = await this.notify('notifications/initialized');
    this.initialized = true;
    return ex;
  }
}

/** Open a legacy session on `transport` (opened here if needed). Throws HandshakeError if initialize fails. */
export async function openLegacySession(transport: Transport, opts: LegacySessionOptions = {}): Promise<LegacySession> {
  const requested = opts.version ?? DEFAULT_LEGACY_VERSION;
  await transport.open();
  const session = new LegacySession(transport, requested, opts);
  if (transport instanceof HttpTransport) {
    // A fresh legacy session: no leftover id or modern headers from a probe.
    transport.setSessionId(undefined);
    transport.setProtocolVersionHeader(undefined);
    transport.setModernHeaders(false);
  }
  const clientInfo: Implementation = opts.clientInfo ?? MCPSPEC_INFO;
  const ex = await session.request('initialize', { protocolVersion: requested, capabilities: opts.capabilities ?? {}, clientInfo }, { timeoutMs: opts.handshakeTimeoutMs });
  session.handshake = ex;
  const failure = handshakeFailure(ex, 'initialize', transport);
  if (failure) throw failure;

  const result = (ex.response as { result: Record<string, unknown> }).result;
  const answered = result.protocolVersion;
  if (typeof answered === 'string') {
    session.version = answered;
    if (!isLegacyVersion(answered)) {
      // LC-03 allows any version; LC-04 says a client that cannot speak it should disconnect.
      // mcpspec keeps going so the report can show what happened, and leaves a note.
      transport.recorder.note(transport.kind, 'unknown-version', `server answered protocolVersion ${answered}, which mcpspec does not speak`, { requested, answered });
    }
  } else {
    transport.recorder.note(transport.kind, 'unknown-version', 'initialize result has no protocolVersion string', { requested });
  }
  if (typeof result.capabilities === 'object' && result.capabilities !== null) session.capabilities = result.capabilities as Record<string, unknown>;
  if (typeof result.serverInfo === 'object' && result.serverInfo !== null) session.serverInfo = result.serverInfo as Implementation;
  if (typeof result.instructions === 'string') session.instructions = result.instructions;

  if (transport instanceof HttpTransport) {
    transport.setProtocolVersionHeader(session.version);
    if (opts.standaloneStream) await transport.openStandaloneStream(session.timeoutMs);
  }
  if (!opts.skipInitialized) await session.sendInitialized();
  return session;
}
