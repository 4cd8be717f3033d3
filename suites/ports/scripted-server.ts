// The port a client-role scenario drives: mcpspec playing a scripted server for the client under
// test, and what it received. The runner implements it.

import type { TransportKind } from '../../results/check-record.js';
import type { ScriptedHttp } from './scripted-http.js';

/** How the client under test ended. */
export interface ClientExit {
  exitCode: number | null;
  signal: string | null;
  /** It was still running at the timeout and was stopped. */
  timedOut: boolean;
  stderrTail: string;
  stdoutTail: string;
  /** Wall time from start to exit. */
  elapsedMs?: number;
}

/** One message the client under test sent, and what the scripted server answered. */
export interface Received {
  message: unknown;
  reply?: unknown;
  /** HTTP request headers (lower-case names), when the client spoke HTTP. */
  headers?: Record<string, string>;
  /** HTTP: the request method (POST, GET, DELETE). */
  httpMethod?: string;
  /** Which connection it came on: a stdio server process the client started, counted from 1 (HTTP: 0). */
  connection: number;
  seq: number;
  /** Recording sequence number of the reply, once sent. */
  replySeq?: number;
  /** When it arrived (ms, Date.now()). */
  at?: number;
  /**
   * HTTP: the scripted server answered by polling (ScriptedReply.poll): it closed the SSE stream
   * after a priming event naming `retry`, and keeps the answer for a GET with Last-Event-ID `eventId`.
   */
  polled?: { eventId: string; retryMs: number; closedAt: number };
  /** HTTP: the scripted server broke this request's answer stream (ScriptedReply.broken): closed it, no answer. */
  broken?: { closedAt: number };
  /** stdio: the scripted server process ended on this request, unanswered (ScriptedReply.die). */
  died?: { at: number };
  /** HTTP: the request URL's query string, when it had one (`?access_token=...` is a token where it must not be). */
  query?: string;
  /** HTTP: the gate before the endpoint (ScriptedHttp.gate) answered it with this status; the script never saw it. */
  refused?: number;
}

/**
 * What a scripted handler may return instead of a bare JSON-RPC response: messages sent before the
 * response (over HTTP as events of an SSE response, over stdio as lines), a response that may still
 * be pending, and HTTP details.
 */
export interface ScriptedReply {
  scripted: true;
  before?: unknown[];
  /** Messages sent as they come, after `before` and before the response (a subscription stream). */
  stream?: AsyncIterable<unknown>;
  /** The response; a promise is awaited (the HTTP stream stays open meanwhile). undefined = none. */
  response?: unknown;
  /** HTTP: answer as an SSE stream, primed with an event id and a comment line. */
  sse?: boolean;
  /**
   * HTTP, 2025-11-25 polling (HL-04): an SSE stream that names `retryMs` and an event id, then closes
   * before the answer; the answer comes on the client's GET with that Last-Event-ID.
   */
  poll?: { retryMs: number };
  /**
   * HTTP, 2026-07-28 (HM-05): an SSE stream that closes before the answer, with no event id to
   * resume from; the answer is never sent (a client must re-issue the request with a new id).
   */
  broken?: boolean;
  /** stdio: the server process ends at once, without answering (it died; the client should restart it). */
  die?: boolean;
  /** HTTP: extra response headers (e.g. Mcp-Session-Id). */
  headers?: Record<string, string>;
  /** HTTP status (default 200, or 202 with no response). */
  status?: number;
}

export function isScriptedReply(v: unknown): v is ScriptedReply {
  return typeof v === 'object' && v !== null && (v as { scripted?: unknown }).scripted === true;
}

export type ScriptedHandler = (message: unknown, received: Received) => unknown;

/** mcpspec playing a server for a client under test (the port a client-role scenario needs). */
export interface ScriptedServer {
  readonly kind: TransportKind;
  /** How to answer each message the client sends: a full JSON-RPC response, a ScriptedReply, or undefined for none. */
  handle(handler: ScriptedHandler): void;
  /** stdio: send a message to the client on its newest connection (server-to-client requests, notifications). */
  send(message: unknown): boolean;
  /** The first received message matching, waiting at most timeoutMs (undefined if none came or the run ended). */
  waitFor(match: (r: Received) => boolean, timeoutMs: number): Promise<Received | undefined>;
  /**
   * Resolves after ms, or sooner when the run ends: a scripted server holds an answer or a
   * notification a fixed time (never the client's pace, which would make verdicts depend on timing).
   */
  pause(ms: number): Promise<void>;
  /**
   * Start the client under test against this server; resolves when it exits (or is stopped at the
   * timeout). `env`: variables this run's client gets besides its usual ones (a scenario's credentials).
   */
  runClient(timeoutMs?: number, env?: Record<string, string>): Promise<ClientExit>;
  /** Everything the client sent, in order. */
  received(): Received[];
  /** HTTP: the primitives a scenario's profile of the peer is built on (other routes on the origin, a gate, notes). */
  readonly http?: ScriptedHttp;
  /**
   * The next client run starts with a new temporary HOME (and working directory, unless the user
   * chose one): as on a machine where the client never ran, with no credentials it stored before.
   */
  freshClientState?(): void;
  /**
   * Tools the client under test looks for by name besides the scripted server's own (a harness written
   * to the official suite's contract looks up its scenario's), listed after them in the plain tools/list
   * answer. Read at each answer: it may change between two client runs.
   */
  readonly alsoListed?: readonly Record<string, unknown>[];
  /**
   * A URL on 127.0.0.1 (a port chosen at run time, apart from the MCP endpoint) that no client has
   * any reason to request: every request to it is kept. Open until the scenario ends.
   */
  canary?(): Promise<Canary>;
}

/** A request that reached a canary URL. */
export interface CanaryHit {
  method: string;
  path: string;
  userAgent?: string;
  /** When it arrived (ms, Date.now()). */
  at: number;
}

/** A URL nobody should fetch, and who did. */
export interface Canary {
  readonly url: string;
  hits(): CanaryHit[];
}
