// What legacy and modern sessions share: request ids, building the JSON-RPC envelope, turning a
// transport result into an Exchange, and explaining a failed handshake.

import { serializeBody, type ExchangeOptions, type Transport } from './transport.js';
import type { Recorder } from './recorder.js';
import type { CloseInfo } from './types.js';
import {
  DEFAULT_TIMEOUT_MS,
  HandshakeError,
  type Era,
  type Exchange,
  type NotifyOptions,
  type RequestOptions,
  type ServerInfo,
  type Session,
  type EraDetection,
} from './session-types.js';

export abstract class BaseSession implements Session {
  abstract readonly era: Era;
  version: string;
  serverInfo?: ServerInfo;
  capabilities: Record<string, unknown> = {};
  instructions?: string;
  handshake!: Exchange;
  detection?: EraDetection;
  readonly timeoutMs: number;
  private nextId = 1;

  constructor(
    readonly transport: Transport,
    version: string,
    timeoutMs: number | undefined,
  ) {
    this.version = version;
    this.timeoutMs = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get recorder(): Recorder {
    return this.transport.recorder;
  }

  /** Integer ids from a per-session counter: unique for the whole session (JR-03 and JR-03b). */
  nextRequestId(): number {
    return this.nextId++;
  }

  /** Era-specific params (modern adds `_meta`). Undefined = send no `params` member. */
  protected abstract buildParams(
    method: string,
    params: Record<string, unknown> | undefined,
    opts: RequestOptions,
  ): Record<string, unknown> | undefined;

  async request(method: string, params?: Record<string, unknown>, opts: RequestOptions = {}): Promise<Exchange> {
    const id = opts.id ?? this.nextRequestId();
    const p = this.buildParams(method, params, opts);
    const msg: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (p !== undefined) msg.params = p;
    return this.send(msg, { expectId: id, timeoutMs: opts.timeoutMs ?? this.timeoutMs, headers: opts.headers }, id, method);
  }

  async notify(method: string, params?: Record<string, unknown>, opts: NotifyOptions = {}): Promise<Exchange> {
    const msg: Record<string, unknown> = { jsonrpc: '2.0', method };
    if (params !== undefined) msg.params = params;
    return this.send(
      msg,
      { timeoutMs: opts.timeoutMs ?? this.timeoutMs, quietMs: opts.quietMs, headers: opts.headers },
      undefined,
      method,
    );
  }

  async raw(body: string | unknown, opts: ExchangeOptions): Promise<Exchange> {
    let id: string | number | null | undefined;
    let method: string | undefined;
    const obj = typeof body === 'string' ? safeParse(body) : body;
    if (typeof obj === 'object' && obj !== null && !Array.isArray(obj)) {
      const o = obj as Record<string, unknown>;
      if (typeof o.id === 'string' || typeof o.id === 'number' || o.id === null) id = o.id;
      if (typeof o.method === 'string') method = o.method;
    }
    return this.send(body, opts, id, method);
  }

  close(): Promise<CloseInfo | undefined> {
    return this.transport.close();
  }

  protected async send(
    body: unknown,
    opts: ExchangeOptions,
    id: string | number | null | undefined,
    method: string | undefined,
  ): Promise<Exchange> {
    const startedAt = Date.now();
    const from = this.recorder.lastSeq() + 1;
    const res = await this.transport.exchange(body, opts);
    const ex: Exchange = { ...res, request: body, startedAt, seqRange: { from, to: this.recorder.lastSeq() } };
    if (id !== undefined) ex.id = id;
    if (method !== undefined) ex.method = method;
    return ex;
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function excerpt(s: string, n: number): string {
  const t = s.trim();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

/**
 * Why a handshake exchange failed, or undefined if it produced a result object. The message names
 * the request that went unanswered and quotes the target's stderr when it died.
 */
export function handshakeFailure(ex: Exchange, what: string, timeoutMs: number, transport: Transport): HandshakeError | undefined {
  const label = `${what} (id ${JSON.stringify(ex.id)})`;
  const stderrTail = ex.closed?.stderrTail ?? (transport as { stderrTail?: () => string }).stderrTail?.();
  const tail = stderrTail ? `; stderr: ${excerpt(stderrTail, 800)}` : '';
  if (ex.closed) {
    const how = ex.closed.signal ? `was killed by ${ex.closed.signal}` : `exited with code ${ex.closed.exitCode}`;
    const target = transport.kind === 'http' ? 'the server connection was lost' : `the target ${how}`;
    return new HandshakeError(`${target} before answering ${label}${tail}`, ex, stderrTail);
  }
  if (ex.timedOut) {
    return new HandshakeError(`${label} was never answered within ${timeoutMs} ms${tail}`, ex, stderrTail);
  }
  const resp = ex.response as Record<string, unknown> | undefined;
  if (resp === undefined) {
    const http = ex.http ? ` (HTTP ${ex.http.status}${ex.http.body ? `: ${excerpt(ex.http.body, 300)}` : ''})` : '';
    return new HandshakeError(`${label} got no JSON-RPC response${http}${tail}`, ex, stderrTail);
  }
  if ('error' in resp) {
    const err = resp.error as { code?: unknown; message?: unknown } | undefined;
    return new HandshakeError(
      `${label} was rejected: ${String(err?.code)} ${String(err?.message)} (${serializeBody(resp.error).slice(0, 300)})`,
      ex,
      stderrTail,
    );
  }
  if (typeof resp.result !== 'object' || resp.result === null || Array.isArray(resp.result)) {
    return new HandshakeError(`${label} returned no result object`, ex, stderrTail);
  }
  return undefined;
}
