// The port a server-role scenario drives: a session with the server under test (mcpspec is its
// client). The runner implements it; every call returns an Exchange: what was sent and what came back.

import type { MetaOptions, Implementation } from '../../protocol/meta.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import type { Era } from '../../protocol/versions.js';
import type { TransportKind } from '../../results/check-record.js';
import type { CloseInfo, WireEvent } from '../../results/wire.js';

/**
 * The reason of the `notifications/cancelled` the runner sends for a request a scenario gave up on
 * (a straggler, say): whether a slow call becomes one depends on the machine's timing, so no verdict
 * rests on those cancellations; checks judge the ones scenarios send on purpose.
 */
export const GAVE_UP_REASON = 'mcpspec gave up on this request';

export interface HttpOutcome {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  /** Response body text, bounded. */
  body: string;
  /** SSE: the event ids seen on this answer's stream, a priming event's included, in order. */
  eventIds?: string[];
  /** SSE: the stream's first event was a priming event (an event id and empty data, HL-04). */
  ssePrimed?: boolean;
  /**
   * SSE: after its response, the stream ended, or was still open a whole request timeout after it.
   * Streams still open a moment after the answer are read on in the background, so this may be set
   * after the exchange returns; it is final once the transport is closed (when oracles judge).
   * Absent: not known (the run ended first, or the answer was not read that far).
   */
  sseAfterAnswer?: 'ended' | 'open';
  /**
   * SSE, legacy: the server closed the answer's stream before the response, and mcpspec resumed it
   * (GET with Last-Event-ID, HL-04): the event it resumed after, and the `retry` the stream had named;
   * the GET's HTTP status (absent: not sent, the header unsendable or the wait cut short), whether the
   * server refused it (no SSE stream: the stream cannot go on), and whether the response came on the
   * stream it opened.
   */
  resumed?: { afterEventId: string; retryMs?: number; foreignIds?: RequestId[]; status?: number; refused?: boolean; answered?: boolean }[];
}

export interface Exchange {
  /** The request id (absent for notifications and raw bodies without a readable one). */
  id?: RequestId | null;
  /** What was sent: the object, or the raw string for malformed-input probes. */
  request: unknown;
  method?: string;
  /** The JSON-RPC response attributed to this message (by id; id-less only when it was the single id-less probe). */
  response?: unknown;
  /** Messages that came back for this exchange: the response, and over HTTP everything on its response stream. */
  messages: unknown[];
  /** No answer within the request's whole timeout. */
  timedOut: boolean;
  http?: HttpOutcome;
  /** The target died or the connection was lost during (or before) the exchange. */
  closed?: CloseInfo;
  /** The run ended (deadline, interrupt) while this waited: no judgement may rest on it. */
  aborted?: boolean;
  /** HTTP: the response stream ended or broke before the answer (HM-05); requests are re-issued once. */
  streamBroken?: boolean;
  /** A re-issued request (new id): the first attempt, whose stream ended or broke before its answer. */
  reissueOf?: Exchange;
  /** stdio: a shared id-less probe whose answer could not be attributed; sent again alone, never judged. */
  ambiguous?: boolean;
  /**
   * A liveness probe, sent once a request went unanswered for its whole timeout: the fence and a
   * request for an unknown method go out together and share this number (robustness.keeps-answering).
   */
  liveness?: number;
  elapsedMs: number;
  startedAt: number;
  /** The timeout this exchange waited with. */
  timeoutMs: number;
  /** Recording sequence numbers of what this exchange sent and received. */
  seq: number[];
}

export interface RequestOptions extends MetaOptions {
  timeoutMs?: number;
  /** Give up on this request (the session tells the server it is cancelled: CN-01, CN-02). */
  signal?: AbortSignal;
  /** The caller already told the server the request is cancelled: giving up sends nothing more. */
  cancelSent?: boolean;
  id?: RequestId;
  /** HTTP only: header overrides; `undefined` removes a header. */
  headers?: Record<string, string | undefined>;
}

export interface NotifyOptions {
  timeoutMs?: number;
  headers?: Record<string, string | undefined>;
}

/**
 * A message sent verbatim (malformed input, near-valid requests). `expectId` is the id its answer
 * should carry; `idless` says the answer may lack an id (the input was malformed), so the runner
 * keeps at most one such probe outstanding per connection and attributes an id-less answer only then.
 */
export interface ProbeOptions {
  expectId?: RequestId;
  idless?: boolean;
  /** stdio: may share its connection with other id-less probes (see ExchangeOptions.sharedIdless). */
  sharedIdless?: boolean;
  /** stdio: on a connection of its own, never shared (to know which message killed a target). */
  alone?: boolean;
  timeoutMs?: number;
  headers?: Record<string, string | undefined>;
  httpMethod?: 'POST' | 'GET' | 'DELETE';
  /** HTTP: an SSE response ends the exchange at its status and headers; the stream is closed unread (a GET stream never ends). */
  sseHeadOnly?: boolean;
}

/** How the era was chosen, when `--spec-version auto`. */
export interface EraDetection {
  era: Era;
  version: string;
  reason: string;
  probe?: Exchange;
}

/** stdio: what the target did once mcpspec closed its stdin (IO-05). */
export interface InputEnd {
  exited: boolean;
  exitCode?: number | null;
  signal?: string | null;
  /** From closing stdin to the exit, or to giving up. */
  elapsedMs: number;
  /** The target had exited before its stdin was closed. */
  alreadyExited?: boolean;
  /** The run ended while this waited: no judgement may rest on it. */
  aborted?: boolean;
}

/** A server under test, seen from mcpspec playing its client, in either era. */
export interface Session {
  readonly era: Era;
  readonly kind: TransportKind;
  /** Negotiated (legacy) or chosen (modern) protocol version. */
  readonly version: string;
  readonly serverInfo?: Implementation;
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** The initialize or server/discover exchange. */
  readonly handshake: Exchange;
  /** Legacy HTTP: the Mcp-Session-Id the server issued. */
  readonly httpSessionId?: string;
  detection?: EraDetection;
  request(method: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<Exchange>;
  /** stdio: waits until a later fence request was answered, so an answer to the notification would have shown. */
  notify(method: string, params?: Record<string, unknown>, opts?: NotifyOptions): Promise<Exchange>;
  /** Sent verbatim: no id bookkeeping, no `_meta` added. */
  probe(body: unknown, opts: ProbeOptions): Promise<Exchange>;
  /** A harmless request (ping or server/discover) whose answer shows the target is alive and has read what came before. */
  fence(): Promise<Exchange>;
  /** The `_meta` every modern request of this session gets (a copy); `{}` in the legacy era. */
  defaultMeta(): Record<string, unknown>;
  /** What this connection recorded so far. */
  events(): WireEvent[];
  /** Calls `fn` with each event this connection records from now on, until the returned function is called. */
  watch?(fn: (e: WireEvent) => void): () => void;
  /** stdio: close the target's stdin and wait (no signal) until it exits or `timeoutMs` passes; `close()` still ends it. */
  endInput?(timeoutMs: number, signal?: AbortSignal): Promise<InputEnd>;
  close(): Promise<CloseInfo | undefined>;
}

/** A connection with no handshake at all, for first-message tests. */
export interface RawConnection {
  readonly kind: TransportKind;
  send(body: unknown, opts: ProbeOptions): Promise<Exchange>;
}

/** A legacy session that has not yet sent notifications/initialized. */
export interface UninitializedSession extends Session {
  sendInitialized(): Promise<Exchange>;
}
