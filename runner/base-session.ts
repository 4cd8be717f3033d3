// What legacy and modern sessions share: request ids, the JSON-RPC envelope, turning a transport
// result into an Exchange, fenced notifications, id-less probes one at a time on stdio, and
// explaining a failed handshake.

import { serializeBody, type RequestId } from '../protocol/jsonrpc.js';
import type { Implementation } from '../protocol/meta.js';
import type { Era } from '../protocol/versions.js';
import type { CloseInfo, WireEvent } from '../results/wire.js';
import { GAVE_UP_REASON, type EraDetection, type Exchange, type InputEnd, type NotifyOptions, type ProbeOptions, type RequestOptions, type Session } from '../suites/ports/session.js';
import type { Recorder } from './recorder.js';
import type { ExchangeOptions, ExchangeResult, Transport } from './transport.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
/** A method no server defines: any live server answers it (-32601, VN-07). */
export const LIVENESS_METHOD = 'mcpspec/liveness';

/** Numbers the pairs of liveness probes of the process (each pair is judged together). */
let livenessPairs = 0;

export interface SessionOptions {
  clientInfo?: Implementation;
  /** Default timeout for every request of this session. */
  timeoutMs?: number;
  /** Timeout of the handshake request (default: timeoutMs). */
  handshakeTimeoutMs?: number;
  /** Ends every wait when the run ends. */
  signal?: AbortSignal;
}

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

  /** What happened, said plainly: the target died (crash), said nothing (hang), or refused. */
  get kind(): 'crash' | 'hang' | 'refused' {
    if (this.exchange.closed) return 'crash';
    if (this.exchange.timedOut || this.exchange.aborted) return 'hang';
    return 'refused';
  }
}

/** One at a time: an id-less answer on stdio can only be attributed while a single id-less message is outstanding. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn);
    this.tail = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }
}

export abstract class BaseSession implements Session {
  abstract readonly era: Era;
  version: string;
  serverInfo?: Implementation;
  capabilities: Record<string, unknown> = {};
  instructions?: string;
  handshake!: Exchange;
  detection?: EraDetection;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /**
   * Shared with the views of this session (LegacySession.attach): the counter and every id sent on
   * this connection, so ids stay unique within the session, whoever chose them.
   */
  protected ids = { next: 1, used: new Set<string>() };
  private readonly idless = new Mutex();
  private idlessOutstanding = 0;

  constructor(
    readonly transport: Transport,
    version: string,
    opts: SessionOptions,
  ) {
    this.version = version;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.signal = opts.signal;
  }

  get kind(): 'stdio' | 'http' {
    return this.transport.kind;
  }

  get recorder(): Recorder {
    return this.transport.recorder;
  }

  get httpSessionId(): string | undefined {
    return (this.transport as { getSessionId?: () => string | undefined }).getSessionId?.();
  }

  /** Id-less messages waiting for an answer on this connection (stdio lanes take one at a time). */
  get idlessBusy(): boolean {
    return this.idlessOutstanding > 0;
  }

  /** An id-less message went unanswered here: a later id-less answer could be its late one. */
  get idlessTainted(): boolean {
    return (this.transport as { idlessTainted?: boolean }).idlessTainted === true;
  }

  events(): WireEvent[] {
    return this.recorder.events();
  }

  watch(fn: (e: WireEvent) => void): () => void {
    return this.recorder.watch(fn);
  }

  defaultMeta(): Record<string, unknown> {
    return {};
  }

  /**
   * Integer ids from a per-session counter that skips any id already sent here (a generated case may
   * have used 9): unique for the whole session (JR-03 and JR-03b), so an answer has one owner.
   */
  nextRequestId(): number {
    while (this.ids.used.has(idKey(this.ids.next))) this.ids.next++;
    const id = this.ids.next++;
    this.ids.used.add(idKey(id));
    return id;
  }

  /**
   * A probe keeps its own id (a generated case's, a scenario's) unless that id was already sent on
   * this connection: then a fresh one of the same kind takes its place. Two requests in flight with
   * one id would make an answer ambiguous (the wrong one would be judged, or a live target declared
   * hung), and a late answer to a timed-out one would be taken for the new one's. An id that is not
   * a string or a safe integer is left alone: breaking it is that probe's point.
   */
  private ownId(body: unknown, opts: ProbeOptions): { body: unknown; opts: ProbeOptions } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { body, opts };
    const msg = body as Record<string, unknown>;
    const id = msg.id;
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return { body, opts };
    const given = id as RequestId;
    if (!this.ids.used.has(idKey(given))) {
      this.ids.used.add(idKey(given));
      return { body, opts };
    }
    const fresh = typeof given === 'number' ? this.nextRequestId() : this.freshStringId(given);
    return { body: { ...msg, id: fresh }, opts: opts.expectId === given ? { ...opts, expectId: fresh } : opts };
  }

  private freshStringId(base: string): string {
    for (let k = 2; ; k++) {
      const id = `${base}~${k}`;
      if (!this.ids.used.has(idKey(id))) {
        this.ids.used.add(idKey(id));
        return id;
      }
    }
  }

  /** Era-specific params (modern adds `_meta`). Undefined = send no `params` member. */
  protected abstract buildParams(method: string, params: Record<string, unknown> | undefined, opts: RequestOptions): Record<string, unknown> | undefined;

  /** The request a fence uses: answered by any live server of this era. */
  protected abstract fenceMethod(): string;

  async request(method: string, params?: Record<string, unknown>, opts: RequestOptions = {}): Promise<Exchange> {
    const first = await this.requestOnce(method, params, opts, opts.id);
    // HM-05: a broken response stream loses the request; a client re-issues it with a new id.
    if (first.streamBroken && !first.aborted && opts.id === undefined) {
      const again = await this.requestOnce(method, params, opts, undefined);
      again.reissueOf = first;
      return again;
    }
    return first;
  }

  private async requestOnce(method: string, params: Record<string, unknown> | undefined, opts: RequestOptions, fixedId: RequestId | undefined): Promise<Exchange> {
    // A scenario's own fixed id is its to choose (it may refer to it later); it is only recorded.
    if (fixedId !== undefined) this.ids.used.add(idKey(fixedId));
    const id = fixedId ?? this.nextRequestId();
    const p = this.buildParams(method, params, opts);
    const msg: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (p !== undefined) msg.params = p;
    const ex = await this.send(msg, { expectId: id, timeoutMs: opts.timeoutMs ?? this.timeoutMs, headers: opts.headers, signal: opts.signal }, id, method);
    // CN-01: a request given up on is cancelled. Modern HTTP: closing the request's stream was the
    // cancellation (CN-02); elsewhere it takes a notification.
    if (ex.aborted && opts.signal?.aborted && !opts.cancelSent && !this.signal?.aborted && !(this.era === 'modern' && this.kind === 'http')) {
      void this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: GAVE_UP_REASON } }, { timeoutMs: this.timeoutMs, until: Promise.resolve() }, undefined, 'notifications/cancelled');
    }
    return ex;
  }

  fence(): Promise<Exchange> {
    return this.request(this.fenceMethod());
  }

  /**
   * Is the target still answering? The fence and a request for a method nobody serves go out at once:
   * a live server answers the second with -32601 even when it is the fence method it ignores (a server
   * that never answers ping is not hung). Both exchanges, the fence first.
   */
  async liveness(): Promise<[Exchange, Exchange]> {
    const pair = ++livenessPairs;
    const probes = await Promise.all([this.fence(), this.request(LIVENESS_METHOD)]);
    for (const p of probes) p.liveness = pair;
    return probes;
  }

  async notify(method: string, params?: Record<string, unknown>, opts: NotifyOptions = {}): Promise<Exchange> {
    const msg: Record<string, unknown> = { jsonrpc: '2.0', method };
    if (params !== undefined) msg.params = params;
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    if (this.transport.kind === 'http') return this.send(msg, { timeoutMs, headers: opts.headers, idless: true }, undefined, method);
    return this.exclusive(() => this.fenced(msg, { timeoutMs, idless: true }, method));
  }

  /**
   * stdio: a notification has no answer to wait for. An answer to it would come before the answer to
   * a later request on a server that reads in order; a late one shows up as an unattributed answer
   * in the recording (judged by the oracles).
   */
  private async fenced(body: unknown, opts: ExchangeOptions, method: string | undefined): Promise<Exchange> {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pending = this.send(body, { ...opts, until: gate }, undefined, method);
    const fence = await this.request(this.fenceMethod(), undefined, { timeoutMs: opts.timeoutMs });
    release();
    const ex = await pending;
    if (fence.timedOut && !ex.response) ex.timedOut = true;
    return ex;
  }

  async probe(given: unknown, givenOpts: ProbeOptions): Promise<Exchange> {
    const { body, opts } = this.ownId(given, givenOpts);
    const o: ExchangeOptions = { expectId: opts.expectId, idless: opts.idless, timeoutMs: opts.timeoutMs ?? this.timeoutMs, headers: opts.headers, httpMethod: opts.httpMethod, sseHeadOnly: opts.sseHeadOnly };
    const { id, method, notification } = describe(body);
    // Raw text is sent as written; an id readable in it still counts as used.
    if (typeof body === 'string' && (typeof id === 'string' || typeof id === 'number')) this.ids.used.add(idKey(id));
    if (this.transport.kind === 'stdio' && notification && opts.expectId === undefined) return this.exclusive(() => this.fenced(body, { ...o, idless: true }, method));
    const go = () => this.send(body, o, opts.expectId ?? id, method);
    if (!opts.idless || this.transport.kind !== 'stdio') return go();
    if (opts.sharedIdless !== true) return this.exclusive(go);
    // Shared: no queue; the transport ends them all as ambiguous if an id-less answer comes while several wait.
    o.sharedIdless = true;
    this.idlessOutstanding++;
    return go().finally(() => this.idlessOutstanding--);
  }

  close(): Promise<CloseInfo | undefined> {
    return this.transport.close();
  }

  endInput(timeoutMs: number, signal?: AbortSignal): Promise<InputEnd> {
    if (!this.transport.endInput) throw new Error(`a ${this.transport.kind} connection has no input to end`);
    return this.transport.endInput(timeoutMs, signal);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.idlessOutstanding++;
    return this.idless.run(fn).finally(() => this.idlessOutstanding--);
  }

  protected async send(body: unknown, opts: ExchangeOptions, id: RequestId | null | undefined, method: string | undefined): Promise<Exchange> {
    const startedAt = Date.now();
    let res: ExchangeResult;
    const signals = [this.signal, opts.signal].filter((x): x is AbortSignal => x !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    if (signal?.aborted) res = { messages: [], timedOut: false, aborted: true, elapsedMs: 0, seq: [] };
    else res = await this.transport.exchange(body, { ...opts, signal });
    const ex: Exchange = { ...res, request: body, startedAt, timeoutMs: opts.timeoutMs };
    if (id !== undefined) ex.id = id;
    if (method !== undefined) ex.method = method;
    return ex;
  }
}

/** Ids compare with their type: 9 and "9" are different ids (JR-06 echoes the type too). */
function idKey(id: RequestId): string {
  return JSON.stringify(id);
}

function describe(body: unknown): { id?: RequestId | null; method?: string; notification?: boolean } {
  let obj = body;
  if (typeof body === 'string') {
    try {
      obj = JSON.parse(body);
    } catch {
      return {};
    }
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return {};
  const o = obj as Record<string, unknown>;
  const out: { id?: RequestId | null; method?: string; notification?: boolean } = {};
  if (typeof o.id === 'string' || typeof o.id === 'number' || o.id === null) out.id = o.id;
  if (typeof o.method === 'string') out.method = o.method;
  out.notification = typeof o.method === 'string' && !('id' in o);
  return out;
}

function excerpt(s: string, n: number): string {
  const t = s.trim();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

/**
 * Why a handshake exchange failed, or undefined if it produced a result object. The message names
 * the request that went unanswered and quotes the target's stderr when it died.
 */
export function handshakeFailure(ex: Exchange, what: string, transport: Transport): HandshakeError | undefined {
  const label = `${what} (id ${JSON.stringify(ex.id)})`;
  const stderrTail = ex.closed?.stderrTail ?? (transport as { stderrTail?: () => string }).stderrTail?.();
  const tail = stderrTail ? `; stderr: ${excerpt(stderrTail, 800)}` : '';
  if (ex.closed) {
    const how = ex.closed.signal ? `was killed by ${ex.closed.signal}` : `exited with code ${ex.closed.exitCode}`;
    const target = transport.kind === 'http' ? 'the server connection was lost' : `the target ${how}`;
    return new HandshakeError(`${target} before answering ${label}${tail}`, ex, stderrTail);
  }
  if (ex.aborted) return new HandshakeError(`the run ended before ${label} was answered`, ex, stderrTail);
  if (ex.timedOut) return new HandshakeError(`${label} was not answered within the ${ex.timeoutMs} ms timeout${tail}`, ex, stderrTail);
  const resp = ex.response as Record<string, unknown> | undefined;
  if (resp === undefined) {
    const http = ex.http ? ` (HTTP ${ex.http.status}${ex.http.body ? `: ${excerpt(ex.http.body, 300)}` : ''})` : '';
    // An endpoint behind authorization: say how to pass credentials (mcpspec does not run OAuth flows).
    const hint = ex.http?.status === 401 || ex.http?.status === 403 ? `; if the server needs credentials, pass them with --header "Authorization: Bearer <token>"` : '';
    return new HandshakeError(`${label} got no JSON-RPC response${http}${hint}${tail}`, ex, stderrTail);
  }
  if ('error' in resp) {
    const err = resp.error as { code?: unknown; message?: unknown } | undefined;
    // A target that writes back what it reads sends mcpspec its own request; mcpspec's refusal of it comes back as the "answer".
    const echoed = transport.recorder.events().some((e) => e.dir === 'in' && typeof e.message === 'object' && e.message !== null && (e.message as { method?: unknown }).method === ex.method && 'id' in e.message);
    const echo = echoed ? `; the target sent mcpspec's own ${ex.method} back to it, as a program that echoes its input does (no MCP server)` : '';
    return new HandshakeError(`${label} was rejected: ${String(err?.code)} ${String(err?.message)} (${serializeBody(resp.error).slice(0, 300)})${echo}`, ex, stderrTail);
  }
  if (typeof resp.result !== 'object' || resp.result === null || Array.isArray(resp.result)) {
    return new HandshakeError(`${label} returned no result object`, ex, stderrTail);
  }
  return undefined;
}
