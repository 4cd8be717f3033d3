// openSession: how every scenario and the CLI get a session. It picks the era (fixed by
// --spec-version, or detected with a server/discover probe) and hands back a Session.

import type { Implementation } from '../protocol/meta.js';
import { isModernVersion, type LegacyVersion, type SpecVersion } from '../protocol/versions.js';
import { DEFAULT_TIMEOUT_MS, type BaseSession } from './base-session.js';

/** A freshly started stdio target gets this many timeouts (at most the allowance) to answer its handshake. */
export const STARTUP_FACTOR = 3;
export const STARTUP_ALLOWANCE_MS = 30_000;
import { probeEra } from './detect-era.js';
import { openLegacySession } from './legacy-session.js';
import { openModernSession } from './modern-session.js';
import { Recorder } from './recorder.js';
import type { Transport, TransportFactory } from './transport.js';

export interface OpenSessionOptions {
  specVersion: 'auto' | SpecVersion;
  clientInfo?: Implementation;
  /** Per-request timeout (and handshake timeout). */
  timeoutMs?: number;
  /** The legacy version to request when 'auto' falls back. Default 2025-11-25. */
  legacyVersion?: LegacyVersion;
  /** Legacy: do not send notifications/initialized yet. */
  skipInitialized?: boolean;
  /** Modern: capabilities declared on every request. */
  clientCapabilities?: Record<string, unknown>;
  /** Legacy: capabilities offered in initialize. */
  capabilities?: Record<string, unknown>;
  /** Legacy HTTP: open the standalone GET stream before notifications/initialized. */
  standaloneStream?: boolean;
  recorder?: Recorder;
  signal?: AbortSignal;
}

/**
 * Start the target and open a session. Throws TargetStartError when the target cannot be started
 * or reached, HandshakeError when it starts but the handshake fails. The transport is closed on
 * any failure, so callers only clean up sessions they got back.
 */
export async function openSession(makeTransport: TransportFactory, opts: OpenSessionOptions): Promise<BaseSession> {
  const recorder = opts.recorder ?? new Recorder();
  let transport: Transport = makeTransport(recorder);
  try {
    await transport.open();
    // A freshly started process answers its first request only once it has started: on a loaded
    // machine that alone can take seconds, so the handshake gets a start-up allowance.
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const handshakeTimeoutMs = transport.kind === 'stdio' ? Math.min(STARTUP_ALLOWANCE_MS, STARTUP_FACTOR * timeoutMs) : timeoutMs;
    const common = { clientInfo: opts.clientInfo, timeoutMs: opts.timeoutMs, handshakeTimeoutMs, signal: opts.signal };
    const legacyOpts = { ...common, skipInitialized: opts.skipInitialized, capabilities: opts.capabilities, standaloneStream: opts.standaloneStream };
    const modernOpts = { ...common, clientCapabilities: opts.clientCapabilities };

    if (opts.specVersion !== 'auto') {
      if (isModernVersion(opts.specVersion)) return await openModernSession(transport, { ...modernOpts, version: opts.specVersion });
      return await openLegacySession(transport, { ...legacyOpts, version: opts.specVersion });
    }

    const detection = await probeEra(transport, { timeoutMs: handshakeTimeoutMs, clientInfo: opts.clientInfo, legacyVersion: opts.legacyVersion, signal: opts.signal });
    let session: BaseSession;
    if (detection.era === 'modern') {
      session = await openModernSession(transport, modernOpts);
    } else {
      if (transport.kind === 'stdio') {
        // The probe may have confused a legacy server (a request before initialize): start it afresh.
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
