// openSession: the one entry point suites and the CLI use. It picks the era (fixed by
// --spec-version, or detected with a server/discover probe) and hands back a Session.

import { probeEra, type DetectEraOptions } from './detect-era.js';
import { openLegacySession } from './legacy-session.js';
import { openModernSession } from './modern-session.js';
import { Recorder } from './recorder.js';
import type { Session } from './session-types.js';
import type { Transport, TransportFactory } from './transport.js';
import { isModernVersion, type ClientInfo, type LegacyVersion, type SpecVersion } from './versions.js';

export * from './session-types.js';

export interface OpenSessionOptions {
  specVersion: 'auto' | SpecVersion;
  clientInfo?: ClientInfo;
  /** Default per-request timeout (and handshake timeout). Default 10 000 ms. */
  timeoutMs?: number;
  /** Era probe timeout for 'auto'. Default min(timeoutMs, 3000). */
  probeTimeoutMs?: number;
  /** The legacy version to request when 'auto' falls back. Default 2025-11-25. */
  legacyVersion?: LegacyVersion;
  /** Legacy: do not send notifications/initialized (see LegacySession.sendInitialized). */
  skipInitialized?: boolean;
  /** Modern: capabilities declared on every request. */
  clientCapabilities?: Record<string, unknown>;
  /** Legacy: capabilities offered in initialize. */
  capabilities?: Record<string, unknown>;
  /** Share a recorder (e.g. one per target run); default a new one. */
  recorder?: Recorder;
}

/**
 * Start the target and open a session. Throws TargetStartError when the target cannot be started
 * or reached, HandshakeError when it starts but the handshake fails. The transport is closed on
 * any failure, so callers only clean up sessions they got back.
 */
export async function openSession(makeTransport: TransportFactory, opts: OpenSessionOptions): Promise<Session> {
  const recorder = opts.recorder ?? new Recorder();
  let transport: Transport = makeTransport(recorder);
  try {
    await transport.open();
    const common = { clientInfo: opts.clientInfo, timeoutMs: opts.timeoutMs };
    const legacyOpts = { ...common, skipInitialized: opts.skipInitialized, capabilities: opts.capabilities };
    const modernOpts = { ...common, clientCapabilities: opts.clientCapabilities };

    if (opts.specVersion !== 'auto') {
      if (isModernVersion(opts.specVersion)) return await openModernSession(transport, { ...modernOpts, version: opts.specVersion });
      return await openLegacySession(transport, { ...legacyOpts, version: opts.specVersion });
    }

    const detectOpts: DetectEraOptions = {
      timeoutMs: opts.timeoutMs,
      probeTimeoutMs: opts.probeTimeoutMs,
      clientInfo: opts.clientInfo,
      legacyVersion: opts.legacyVersion,
    };
    const detection = await probeEra(transport, detectOpts);
    let session: Session;
    if (detection.era === 'modern') {
      session = await openModernSession(transport, modernOpts);
    } else {
      if (transport.kind === 'stdio') {
        // The probe may have confused a legacy server (pre-init request, or it went silent): restart it.
        await transport.close();
        transport = makeTransport(recorder);
        await transport.open();
      }
      session = await openLegacySession(transport, { ...legacyOpts, version: opts.legacyVersion });
    }
    session.detection = detection;
    return session;
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw err;
  }
}
