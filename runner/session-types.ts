// What suites see: a Session that hides the era (legacy initialize vs modern per-request _meta)
// and the transport. Every call returns an Exchange: what was sent plus everything that came back.

import type { Recorder } from './recorder.js';
import type { ExchangeOptions, ExchangeResult, Transport } from './transport.js';
import type { CloseInfo } from './types.js';
import type { ClientInfo } from './versions.js';

export type Era = 'legacy' | 'modern';

export interface Exchange extends ExchangeResult {
  /** The request id (absent for notifications and raw bodies without one). */
  id?: string | number | null;
  /** What was sent: the object, or the raw string for robustness tests. */
  request: unknown;
  method?: string;
  /** Date.now() when the exchange started. */
  startedAt: number;
  /** Recorder sequence numbers covering this exchange (may include concurrent traffic). */
  seqRange: { from: number; to: number };
}

export interface RequestOptions {
  timeoutMs?: number;
  id?: string | number;
  /** Modern only: 'auto' (default) = the standard keys; an object replaces them; 'none' sends no `_meta`. */
  meta?: 'auto' | 'none' | Record<string, unknown>;
  /** Modern only: merged into the `_meta` last; a value `undefined` deletes that key (MT-02 tests). */
  metaOverrides?: Record<string, unknown | undefined>;
  /** HTTP only: header overrides; `undefined` removes a header. */
  headers?: Record<string, string | undefined>;
}

export interface NotifyOptions {
  timeoutMs?: number;
  /** stdio: how long to listen for unsolicited answers. Default 300 ms. */
  quietMs?: number;
  headers?: Record<string, string | undefined>;
}

export interface ServerInfo {
  name: string;
  version: string;
  [k: string]: unknown;
}

/** How the era was chosen (for the report), when `specVersion: 'auto'`. */
export interface EraDetection {
  era: Era;
  version: string;
  reason: string;
  /** The server/discover probe exchange. */
  probe?: Exchange;
}

export interface Session {
  readonly era: Era;
  /** Negotiated (legacy) or chosen (modern) protocol version. */
  readonly version: string;
  readonly serverInfo?: ServerInfo;
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** The initialize or server/discover exchange. */
  readonly handshake: Exchange;
  readonly transport: Transport;
  readonly recorder: Recorder;
  /** Set by openSession when the era was auto-detected. */
  detection?: EraDetection;
  request(method: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<Exchange>;
  notify(method: string, params?: Record<string, unknown>, opts?: NotifyOptions): Promise<Exchange>;
  /** Sent verbatim: no id bookkeeping, no `_meta` added (robustness tests). */
  raw(body: string | unknown, opts: ExchangeOptions): Promise<Exchange>;
  close(): Promise<CloseInfo | undefined>;
}

export interface SessionOptions {
  clientInfo?: ClientInfo;
  /** Default timeout for every request of this session (and the handshake). Default 10 000 ms. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The handshake itself failed (no answer, target died, error). Carries the exchange so a report can
 * say which request went unanswered and what the target printed on stderr.
 */
export class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
  constructor(
    message: string,
    readonly exchange: Exchange,
    readonly stderrTail?: string,
  ) {
    super(message);
  }
}
