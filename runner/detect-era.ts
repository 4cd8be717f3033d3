// Era detection as a dual-era client does it (ED-01 stdio, ED-04 HTTP): probe with a modern
// `server/discover`. A DiscoverResult or a recognised modern error means modern; anything else
// (other errors, whatever their code (ED-02), 4xx without a modern body, silence) means legacy.

import { HttpTransport } from './http-transport.js';
import { modernMeta } from './modern-session.js';
import { Recorder } from './recorder.js';
import type { EraDetection, Exchange } from './session-types.js';
import type { Transport, TransportFactory } from './transport.js';
import {
  DEFAULT_LEGACY_VERSION,
  DEFAULT_MODERN_VERSION,
  MCPSPEC_CLIENT_INFO,
  type ClientInfo,
  type LegacyVersion,
  type ModernVersion,
} from './versions.js';

/** JSON-RPC error codes only a modern server sends (B26): header mismatch, missing capability, unsupported version. */
export const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

export interface DetectEraOptions {
  /** The session timeout; the probe uses min(timeoutMs, 3000) so a silent legacy server costs little. */
  timeoutMs?: number;
  probeTimeoutMs?: number;
  clientInfo?: ClientInfo;
  modernVersion?: ModernVersion;
  /** Reported as `version` when the result is legacy (initialize will negotiate the real one). */
  legacyVersion?: LegacyVersion;
  recorder?: Recorder;
}

const PROBE_ID = 'mcpspec-probe-1';

function probeTimeout(opts: DetectEraOptions): number {
  return opts.probeTimeoutMs ?? Math.min(opts.timeoutMs ?? 3000, 3000);
}

/** Probe an already-open transport. The transport stays open; HTTP header state is reset on a legacy verdict. */
export async function probeEra(transport: Transport, opts: DetectEraOptions = {}): Promise<EraDetection> {
  const modern = opts.modernVersion ?? DEFAULT_MODERN_VERSION;
  const legacy = opts.legacyVersion ?? DEFAULT_LEGACY_VERSION;
  const timeoutMs = probeTimeout(opts);
  const request = {
    jsonrpc: '2.0',
    id: PROBE_ID,
    method: 'server/discover',
    params: { _meta: modernMeta(modern, opts.clientInfo ?? MCPSPEC_CLIENT_INFO) },
  };
  const http = transport instanceof HttpTransport ? transport : undefined;
  http?.setProtocolVersionHeader(modern);
  http?.setModernHeaders(true);
  const startedAt = Date.now();
  const from = transport.recorder.lastSeq() + 1;
  const res = await transport.exchange(request, { expectId: PROBE_ID, timeoutMs });
  const probe: Exchange = {
    ...res,
    id: PROBE_ID,
    request,
    method: 'server/discover',
    startedAt,
    seqRange: { from, to: transport.recorder.lastSeq() },
  };
  const verdict = classify(probe, modern, legacy, timeoutMs);
  if (verdict.era === 'legacy') {
    http?.setProtocolVersionHeader(undefined);
    http?.setModernHeaders(false);
    http?.setSessionId(undefined);
  }
  transport.recorder.note(transport.kind, 'era-detected', `${verdict.era}: ${verdict.reason}`, {
    era: verdict.era,
    version: verdict.version,
  });
  return { ...verdict, probe };
}

function classify(ex: Exchange, modern: string, legacy: string, timeoutMs: number): Omit<EraDetection, 'probe'> {
  const fallback = (why: string) => ({ era: 'legacy' as const, version: legacy, reason: `${why}; fell back to initialize` });
  if (ex.closed) {
    const how = ex.closed.signal ? `was killed by ${ex.closed.signal}` : `exited with code ${ex.closed.exitCode}`;
    return fallback(`the target ${how} on server/discover`);
  }
  if (ex.timedOut) return fallback(`server/discover got no answer within ${timeoutMs} ms`);
  const resp = ex.response as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  const status = ex.http ? ` (HTTP ${ex.http.status})` : '';
  if (resp?.result !== undefined) {
    const r = resp.result as { supportedVersions?: unknown } | null;
    if (r && typeof r === 'object' && Array.isArray(r.supportedVersions)) {
      const listed = r.supportedVersions.filter((v): v is string => typeof v === 'string');
      // mcpspec speaks one modern version; a list without it surfaces later as an `unknown-version` note.
      return { era: 'modern', version: modern, reason: `server/discover answered (supportedVersions: ${listed.join(', ') || 'none'})` };
    }
    return fallback(`server/discover returned a result that is not a DiscoverResult${status}`);
  }
  if (resp?.error !== undefined) {
    const code = resp.error.code;
    const msg = typeof resp.error.message === 'string' ? ` (${resp.error.message.slice(0, 120)})` : '';
    if (typeof code === 'number' && MODERN_ERROR_CODES.has(code)) {
      const supported = (resp.error.data as { supported?: unknown } | undefined)?.supported;
      const list = Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
      const extra = code === -32022 ? `; supported: ${list.join(', ') || 'not listed'}` : '';
      return { era: 'modern', version: modern, reason: `server/discover got modern error ${code}${msg}${status}${extra}` };
    }
    return fallback(`server/discover got ${String(code)}${msg}${status}`);
  }
  if (ex.http) return fallback(`server/discover got HTTP ${ex.http.status} without a JSON-RPC response`);
  return fallback('server/discover got no JSON-RPC response');
}

/**
 * Detect the era of a target on a throwaway transport (closed before returning). openSession uses
 * `probeEra` instead so a modern target's probe transport can be reused.
 */
export async function detectEra(makeTransport: TransportFactory, opts: DetectEraOptions = {}): Promise<EraDetection> {
  const transport = makeTransport(opts.recorder ?? new Recorder());
  try {
    await transport.open();
    return await probeEra(transport, opts);
  } finally {
    await transport.close();
  }
}
