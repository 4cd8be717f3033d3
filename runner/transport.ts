// The contract both client-side transports (stdio child process, Streamable HTTP client)
// implement. One `exchange` = one message sent + the answer attributed to it: by id only, or, for
// an id-less answer, only when exactly one id-less message is outstanding on the connection.

import type { RequestId } from '../protocol/jsonrpc.js';
import type { CloseInfo } from '../results/wire.js';
import type { HttpOutcome, InputEnd } from '../suites/ports/session.js';
import type { Recorder } from './recorder.js';

export interface ServerRequest {
  id: RequestId;
  method: string;
  params?: unknown;
}

export interface Transport {
  readonly kind: 'stdio' | 'http';
  /** Every message in and out of this transport lands here. */
  readonly recorder: Recorder;
  open(): Promise<void>;
  /** Send one body: a string is sent verbatim (malformed input), anything else compact JSON. */
  exchange(body: unknown, opts: ExchangeOptions): Promise<ExchangeResult>;
  close(): Promise<CloseInfo | undefined>;
  /** stdio: close the target's stdin and wait for it to exit on its own (IO-05). */
  endInput?(timeoutMs: number, signal?: AbortSignal): Promise<InputEnd>;
  /** Set once the target died (stdio: process exit; http: connection lost after it was reachable). */
  readonly closed: CloseInfo | undefined;
  /** Answers server->client requests (legacy era). Return a full JSON-RPC response; unset = -32601. */
  onServerRequest?: (req: ServerRequest) => unknown;
}

export interface ExchangeOptions {
  /** The id the answer carries (exact JSON type; a loose `1` vs `"1"` match also ends the wait). */
  expectId?: RequestId;
  /** An answer without an id may belong to this message (malformed input, notifications, batches). */
  idless?: boolean;
  /**
   * stdio: an id-less message that shares its connection with other such messages. An id-less answer
   * while several are outstanding (or after one went unanswered) cannot be attributed, so it ends
   * every shared one at once as `ambiguous`: the caller sends each again alone.
   */
  sharedIdless?: boolean;
  /** Stop waiting when this settles (a notification's fence was answered). */
  until?: Promise<unknown>;
  /** Every wait has a timeout: silence is a verdict only after it. */
  timeoutMs: number;
  /** The run ended: stop waiting at once. */
  signal?: AbortSignal;
  /** HTTP only: extra headers; a value `undefined` removes a header the transport would add. */
  headers?: Record<string, string | undefined>;
  httpMethod?: 'POST' | 'GET' | 'DELETE';
  /** HTTP: an SSE response ends the exchange at its status and headers; the stream is closed unread. */
  sseHeadOnly?: boolean;
}

export interface ExchangeResult {
  /** The JSON-RPC response attributed to this message. */
  response?: unknown;
  /** Messages that came back for it (the response; over HTTP everything on its response stream). */
  messages: unknown[];
  timedOut: boolean;
  aborted?: boolean;
  http?: HttpOutcome;
  closed?: CloseInfo;
  /** HTTP: the response stream ended or broke before the answer came (HM-05: the request is lost). */
  streamBroken?: boolean;
  /** A shared id-less message (sharedIdless) whose answer could not be told apart from another's: no judgement may rest on it. */
  ambiguous?: boolean;
  elapsedMs: number;
  /** HTTP, an SSE answer read to its end on request (readNextStreamToEnd): the stream ended, or stayed open until the timeout. */
  sseRead?: 'ended' | 'open';
  /** Recorder sequence numbers of what was sent and received for this exchange. */
  seq: number[];
}

/** Builds a fresh transport writing into the given recorder (era detection or a restart may need a second one). */
export type TransportFactory = (recorder: Recorder) => Transport;

/**
 * The target could not be started or reached at all. The CLI maps this to exit code 2 (the target
 * could not be tested), distinct from "nonconformant".
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
