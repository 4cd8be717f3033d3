// The contract both transports (stdio process, Streamable HTTP) implement. Suites never see it
// directly; sessions drive it. One `exchange` = one message sent + everything that came back
// until the expected answer, a quiet period, a timeout, or the target's death.

import type { Recorder } from './recorder.js';
import type { CloseInfo } from './types.js';

export interface ServerRequest {
  id: string | number;
  method: string;
  params?: unknown;
}

export interface Transport {
  readonly kind: 'stdio' | 'http';
  /** Every message in and out of this transport lands here. */
  readonly recorder: Recorder;
  open(): Promise<void>;
  /** Send one body: a string is sent verbatim (malformed-input tests), anything else is JSON.stringify'd compactly. */
  exchange(body: string | unknown, opts: ExchangeOptions): Promise<ExchangeResult>;
  close(): Promise<CloseInfo | undefined>;
  /** Set once the target died (stdio: process exit; http: connection lost after it was reachable). */
  readonly closed: CloseInfo | undefined;
  /**
   * Answers server->client requests (legacy era: roots/list, sampling, elicitation, ping).
   * Return a full JSON-RPC response object. Unset = answer -32601.
   */
  onServerRequest?: (req: ServerRequest) => unknown;
}

export interface ExchangeOptions {
  /** The response id that ends the exchange; `undefined` = a notification or raw probe: wait `quietMs` for unsolicited answers. */
  expectId?: string | number | null;
  /** End on the first response whatever its id (malformed / id-less tests). */
  anyResponse?: boolean;
  /** Every wait has a timeout. */
  timeoutMs: number;
  /** Quiet period for notifications and probes (stdio). Default 300 ms. For HTTP the HTTP response ends it. */
  quietMs?: number;
  /** HTTP only: extra headers; a value `undefined` removes a header the transport would add. */
  headers?: Record<string, string | undefined>;
  httpMethod?: 'POST' | 'GET' | 'DELETE';
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  /** Response body text, bounded (4 MiB). */
  body: string;
}

export interface ExchangeResult {
  /** The JSON-RPC response that ended the exchange (see each transport for loose-id handling). */
  response?: unknown;
  /** Every inbound JSON-RPC message seen during this exchange (notifications, server requests, the response). */
  messages: unknown[];
  timedOut: boolean;
  http?: HttpResult;
  /** The target died during (or before) the exchange. */
  closed?: CloseInfo;
  elapsedMs: number;
}

/** Builds a fresh transport writing into the given recorder (era detection may need a second process). */
export type TransportFactory = (recorder: Recorder) => Transport;

export const DEFAULT_QUIET_MS = 300;

/**
 * The target could not be started or reached at all. The CLI maps this to exit code 2 (tool/usage
 * error), distinct from "nonconformant".
 */
export class TargetStartError extends Error {
  override readonly name = 'TargetStartError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Compact serialization (IO-01: no embedded newlines), strings pass through untouched. */
export function serializeBody(body: unknown): string {
  if (typeof body === 'string') return body;
  return JSON.stringify(body) ?? ''; // undefined (no body) serializes to nothing
}
