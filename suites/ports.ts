// The ports suites need from a peer. Suites declare them; the runner implements them (suites never
// touch sockets or processes). Every call returns an Exchange: what was sent and what came back.

import type { MetaOptions, Implementation } from '../protocol/meta.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { Era } from '../protocol/versions.js';
import type { TransportKind } from '../results/check-record.js';
import type { CloseInfo, WireEvent } from '../results/wire.js';

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
   * (GET with Last-Event-ID, HL-04): the event it resumed after, and the `retry` the stream had named.
   */
  resumed?: { afterEventId: string; retryMs?: number; foreignIds?: RequestId[] }[];
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
  /** HTTP, behind authorization: refused with 401 (no token the scripted authorization server issued); the script never saw it. */
  unauthorized?: boolean;
  /** HTTP, step-up scenario: refused with 403 insufficient_scope (its token lacks the scope); the script never saw it. */
  insufficientScope?: boolean;
}

/** One request the client under test made to the scripted authorization side (metadata, register, authorize, token). */
export interface OAuthRequest {
  /** `GET /authorize`, `POST /token`, ... */
  method: string;
  path: string;
  /** The query parameters. */
  query: Record<string, string>;
  /** A form (token) or JSON (register) body's fields. */
  body?: Record<string, unknown>;
  /** What the scripted side answered. */
  status: number;
  /** `GET /authorize`: the authorization code the redirect carried. */
  code?: string;
  /** The client_id it presents (authorize query, token form, or HTTP Basic). */
  clientId?: string;
  /** The HTTP Basic client credentials it carries (decoded). */
  basic?: { id: string; secret: string };
  /** Recording sequence number of the answer (what came after it could use what it gave). */
  answerSeq?: number;
  at: number;
  seq: number;
}

/**
 * What mcpspec's headless browser reports after loading an authorization URL a client opened: the
 * URLs it loaded, in order, and how the last one (normally the client's own callback) answered, or
 * why it could not be loaded.
 */
export interface BrowserVisit {
  visited: string[];
  /** HTTP status of the last URL loaded. */
  status?: number;
  /** Why the last URL could not be loaded (ECONNREFUSED, a timeout, ...). */
  error?: string;
}

/** How the scripted authorization side misbehaves, on purpose. */
export interface OAuthOptions {
  wrongIssuer?: boolean;
  /** The Protected Resource Metadata names another resource than the endpoint it is fetched for (RFC 9728 §3.3). */
  wrongResource?: boolean;
  /**
   * The Protected Resource Metadata names a second authorization server (its issuer and endpoints
   * under /as2 on the same origin) instead of the first: the resource has moved.
   */
  migrated?: boolean;
  /**
   * Every registration is for `client_secret_basic` with a secret, whatever the client asked for,
   * and the metadata lists only that token endpoint method.
   */
  confidential?: boolean;
  /** The authorization server's metadata says it takes Client ID Metadata Document URLs as client_id (`client_id_metadata_document_supported`). */
  cimd?: boolean;
  /**
   * The authorization response's `iss` (RFC 9207): the issuer (default), another issuer, the issuer
   * with a trailing slash (equal only after normalization), or none.
   */
  iss?: 'issuer' | 'another' | 'trailing-slash' | 'absent';
  /** Whether the metadata says responses carry iss (`authorization_response_iss_parameter_supported`; default true). */
  issAdvertised?: boolean;
  /** The authorization server metadata leaves `code_challenge_methods_supported` out (it does not support PKCE, so clients must refuse to go on). */
  noPkce?: boolean;
  /**
   * The authorization response's `state`: the one the request carried (default), another one, or
   * none; a client that sent one must discard a response without it or with another.
   */
  state?: 'echo' | 'another' | 'absent';
  /** tools/call needs a scope the first challenge did not name: 403 insufficient_scope until the client steps up. */
  stepUp?: boolean;
  /**
   * Access tokens from the authorization code grant serve this many authorized MCP requests; the next
   * request presenting one gets 401 `error="invalid_token"`, as for an expired token. Tokens from a
   * refresh never expire, so one refresh (or a new authorization) is enough.
   */
  expireAfter?: number;
  /**
   * The 401 challenge names no resource_metadata (the client constructs the well-known URI), and the
   * authorization server's issuer has a path, its metadata served only by OpenID Connect discovery
   * with path insertion (the second URI clients must try).
   */
  wellKnown?: boolean;
  /**
   * The authorization server's issuer has no path, and only OpenID Connect discovery serves its
   * metadata (`/.well-known/openid-configuration`; the OAuth 2.0 URI answers 404), as many identity
   * providers do.
   */
  oidcOnly?: boolean;
  /**
   * Where a client finds the scope to ask for: the 401 challenge (default); only the Protected
   * Resource Metadata's scopes_supported (the challenge names none); nowhere (neither, nor the
   * authorization server's metadata); or the challenge, naming a scope scopes_supported does not list
   * beside one it does (the metadata listing another too: neither a subset nor a superset).
   */
  scopeFrom?: 'challenge' | 'metadata' | 'none' | 'challenge-unlisted';
}

/** The scripted authorization server, as the checks read it afterwards. */
export interface OAuthLog {
  /** The MCP endpoint (the resource clients must name). */
  resource: string;
  /** The Protected Resource Metadata URL the 401 challenge names. */
  resourceMetadataUrl: string;
  /** The authorization server's metadata URL (its issuer is the endpoint's origin). */
  serverMetadataUrl: string;
  /** The scope the challenge names (undefined: it names none). */
  scope?: string;
  /** The `resource` the Protected Resource Metadata names when the scenario makes it another than `resource`. */
  prmResource?: string;
  /** The Protected Resource Metadata's scopes_supported (undefined: it has none). */
  scopesSupported?: string[];
  /** The issuer the authorization server metadata names (not its identifier when the scenario says so). */
  issuer: string;
  /** The identifier the Protected Resource Metadata lists for the authorization server. */
  identifier: string;
  /** The `iss` the authorization responses carry (RFC 9207; not the issuer when the scenario says so); undefined: none. */
  responseIss?: string;
  /** Whether the metadata says responses carry iss (`authorization_response_iss_parameter_supported: true`). */
  issAdvertised: boolean;
  /** Whether the authorization server metadata leaves code_challenge_methods_supported out. */
  pkceUnadvertised?: boolean;
  /** What the authorization responses do with the request's state: echo it (default), change it, or leave it out. */
  responseState: 'echo' | 'another' | 'absent';
  /** Step-up scenario: the scope a tools/call needs, named by its 403 insufficient_scope. */
  stepUpScope?: string;
  requests: OAuthRequest[];
  /** The access tokens issued, in order. */
  tokens: string[];
  /** Expiry scenario: the access tokens that expired, with the recording sequence number of the note saying so (just before the 401). */
  expired: { token: string; seq: number }[];
  /** Dynamic client registrations: the client_id issued and the authorization server (identifier) that issued it. */
  registrations: { clientId: string; server: string; seq: number; secret?: string; method?: string }[];
  /** Reports of mcpspec's headless browser (clients that authorize by opening a browser), with their recording sequence numbers. */
  browser: (BrowserVisit & { seq: number })[];
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
  /** Resolves once nothing has arrived for quietMs (at most timeoutMs): a scripted server may hold an answer. */
  quiet(quietMs: number, timeoutMs: number): Promise<void>;
  /** Start the client under test against this server; resolves when it exits (or is stopped at the timeout). */
  runClient(timeoutMs?: number): Promise<ClientExit>;
  /** Everything the client sent, in order. */
  received(): Received[];
  /**
   * HTTP: put the endpoint behind OAuth. Requests without a token the scripted authorization server
   * issued get 401 with a Bearer challenge; the same origin serves the Protected Resource Metadata,
   * the authorization server's metadata, registration, authorize (redirects at once with a code) and
   * token. Call before runClient; the returned log fills as the client goes. `wrongIssuer`: the
   * authorization server metadata names an issuer other than the identifier it is fetched for;
   * `iss` and `issAdvertised`: what the authorization response's `iss` (RFC 9207) is, and whether the
   * metadata says responses carry it. Called again, it
   * switches those (and forgets the tokens issued so far), and the same log goes on.
   */
  requireAuthorization?(opts?: OAuthOptions): OAuthLog;
  /**
   * The next client run starts with a new temporary HOME (and working directory, unless the user
   * chose one): as on a machine where the client never ran, with no credentials it stored before.
   */
  freshClientState?(): void;
}

/**
 * One plain HTTP request outside the MCP transport: what an OAuth client does around it (a request
 * without credentials, metadata documents). Its body is never read as a JSON-RPC message.
 */
export interface PlainHttpRequest {
  /** Absolute URL; default the MCP endpoint under test. */
  url?: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Sent as they are; `undefined` removes a header of the target's (compared case-insensitively). */
  headers?: Record<string, string | undefined>;
  body?: string;
  /**
   * Also send the headers the user gave for the target (`--header`). Only ever to the endpoint's
   * own origin: credentials never go to another host.
   */
  targetHeaders?: boolean;
}

export interface PlainHttpResponse {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Absent when no answer came (timedOut, or error). */
  status?: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as text, bounded. */
  body: string;
  truncated?: boolean;
  /** The request failed: connection refused, reset, bad URL. */
  error?: string;
  timedOut: boolean;
  /** The run ended while this waited: no judgement may rest on it. */
  aborted?: boolean;
  elapsedMs: number;
  /** Recording sequence numbers of the request and its answer. */
  seq: number[];
}
