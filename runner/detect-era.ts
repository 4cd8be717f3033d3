// Era detection as a dual-era client does it (ED-01 stdio, ED-04 HTTP): probe with a modern
// `server/discover`. A DiscoverResult or a recognised modern error means modern (so does any other
// result object: only a server that implements server/discover answers it); anything else
// (other errors, whatever their code (ED-02), 4xx without a modern body, silence for the whole
// timeout) means legacy. A slow server gets the whole timeout: a late answer is still an answer.

import { MODERN_ERROR_CODES } from '../protocol/jsonrpc.js';
import { MCPSPEC_INFO, modernMeta, type Implementation } from '../protocol/meta.js';
import { DEFAULT_LEGACY_VERSION, DEFAULT_MODERN_VERSION, type LegacyVersion, type ModernVersion } from '../protocol/versions.js';
import type { EraDetection, Exchange } from '../suites/ports/session.js';
import { DEFAULT_TIMEOUT_MS } from './base-session.js';
import { HttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

export interface DetectEraOptions {
  /** The request timeout: the probe waits for all of it. */
  timeoutMs?: number;
  clientInfo?: Implementation;
  modernVersion?: ModernVersion;
  /** Reported as `version` when the result is legacy (initialize will negotiate the real one). */
  legacyVersion?: LegacyVersion;
  signal?: AbortSignal;
}

const PROBE_ID = 'mcpspec-probe-1';

/** Probe an already-open transport. The transport stays open; HTTP header state is reset on a legacy verdict. */
export async function probeEra(transport: Transport, opts: DetectEraOptions = {}): Promise<EraDetection> {
  const modern = opts.modernVersion ?? DEFAULT_MODERN_VERSION;
  const legacy = opts.legacyVersion ?? DEFAULT_LEGACY_VERSION;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const request = {
    jsonrpc: '2.0',
    id: PROBE_ID,
    method: 'server/discover',
    params: { _meta: modernMeta(modern, {}, opts.clientInfo ?? MCPSPEC_INFO) },
  };
  const http = transport instanceof HttpTransport ? transport : undefined;
  http?.setProtocolVersionHeader(modern);
  http?.setModernHeaders(true);
  const startedAt = Date.now();
  const res = await transport.exchange(request, { expectId: PROBE_ID, timeoutMs, signal: opts.signal });
  const probe: Exchange = { ...res, id: PROBE_ID, request, method: 'server/discover', startedAt, timeoutMs };
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
  if (ex.aborted) return fallback('the run ended before server/discover was answered');
  if (ex.timedOut) return fallback(`server/discover got no answer within the ${timeoutMs} ms timeout`);
  const resp = ex.response as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  const status = ex.http ? ` (HTTP ${ex.http.status})` : '';
  if (resp?.result !== undefined) {
    const r = resp.result as { supportedVersions?: unknown } | null;
    if (r && typeof r === 'object' && Array.isArray(r.supportedVersions)) {
      const listed = r.supportedVersions.filter((v): v is string => typeof v === 'string');
      // mcpspec speaks one modern version; a list without it surfaces later as an `unknown-version` note.
      return { era: 'modern', version: modern, reason: `server/discover answered (supportedVersions: ${listed.join(', ') || 'none'})` };
    }
    // A result at all comes only from a server that implements server/discover (a legacy server knows
    // no such method before initialize): judged in the 2026-07-28 era, where discover.result judges it.
    if (r && typeof r === 'object' && !Array.isArray(r)) return { era: 'modern', version: modern, reason: `server/discover answered with a result that is not a DiscoverResult (no supportedVersions list)${status}; only a server that implements server/discover answers it, so it is judged as ${modern}` };
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

