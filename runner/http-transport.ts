// Streamable HTTP client (TR25 legacy shape and H26 modern shape) on node:http (http-request.ts). Each
// exchange is one HTTP request; the answer is a single JSON body, an SSE stream scoped to the
// request, or 202 for notifications. Session state (legacy session id, protocol-version header,
// modern mirror headers) is set by the session layer; the transport only applies it.
//
// What header tests can rely on: a header removed by an override is not sent at all; names keep
// their case; values are sent as given; CR/LF/NUL are refused (we throw); nothing else is added
// except Host, Connection and Content-Length.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { BackgroundReads } from './background-reads.js';
import { MAX_BODY_BYTES, readBounded } from './bounded-reader.js';
import { checkHeaders, sendHttp, type HttpResponse } from './http-request.js';
import { applyHeaderOverrides, modernHeadersFor } from '../protocol/http-headers.js';
import { idMatch, isJsonRpcMessage, isObj, isRequest, isResponse, responseId, serializeBody, tryParseJson } from '../protocol/jsonrpc.js';
import type { CloseInfo } from '../results/wire.js';
import type { HttpOutcome } from '../suites/ports/session.js';
import { redactHeaders } from './redact.js';
import { ParamHeaderBook } from './param-header-book.js';
import { Recorder } from './recorder.js';
import { replyToServerRequest } from './server-request-reply.js';
import { TargetStartError, type ExchangeOptions, type ExchangeResult, type ServerRequest, type Transport } from './transport.js';

export interface HttpTarget {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp */
  url: string;
  /** Sent on every request (e.g. Authorization); per-exchange overrides still win. */
  headers?: Record<string, string>;
}

export interface HttpTransportOptions {
  maxBodyBytes?: number;
  /** x-mcp-header declarations shared by the run's transports (default: this transport's own). */
  paramHeaders?: ParamHeaderBook;
  /** Timeout for the DELETE sent on close and for replies to server requests. Default 2000 ms. */
  auxTimeoutMs?: number;
  /**
   * Where the rest of answered SSE streams is read on (see drainRest): shared by a run, which waits
   * for them before judging. Without it a stream still open a moment after its answer is cut (its
   * end stays unknown), so nothing outlives the exchange (fuzz campaigns, probes).
   */
  backgroundReads?: BackgroundReads;
}


const ACCEPT_BOTH = 'application/json, text/event-stream';
const LAST_SENT_CHARS = 4096;
/** How long the rest of an answered SSE stream may take to end before its connection is cut. */
const DRAIN_GRACE_MS = 20;
/** Resumptions of one answer's stream (HL-04 polling); each waits the server's `retry`. */
const MAX_RESUMES = 8;
/** Wait before resuming a stream whose server named no `retry`. */
const DEFAULT_RESUME_DELAY_MS = 200;
/** A Last-Event-ID the server chose that cannot go in a header (no resumption then). */
const HEADER_SAFE = /^[\x20-\x7e]*$/;


/** Turn a network error (node:http, or undici's "fetch failed") into something a user can act on. */
export function describeNetworkError(err: unknown): { code?: string; text: string } {
  const e = err as { cause?: { code?: string; message?: string }; message?: string; code?: string };
  const code = e?.cause?.code ?? e?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset by the server',
    EHOSTUNREACH: 'host unreachable',
    ETIMEDOUT: 'connection timed out',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  };
  const text = (code && known[code]) || e?.cause?.message || e?.message || String(err);
  return { code, text };
}

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  onServerRequest?: (req: ServerRequest) => unknown;

  private sessionId?: string;
  /** The session was opened by another transport (adoptSession): ending it is not this one's job. */
  private borrowed = false;
  private protocolVersion?: string;
  private modern = false;
  private reachable = false;
  private closedInfo?: CloseInfo;
  private lastSent?: string;
  private readonly replies = new Set<Promise<void>>();
  /** Answered SSE streams still open, read on in the background (see drainRest), if the run wants that. */
  private readonly drains?: BackgroundReads;
  /** Set once close() began: streams that end from then on may have been ended by it. */
  private closing = false;
  private readonly maxBody: number;
  private readonly auxTimeoutMs: number;
  private readonly paramHeaders: ParamHeaderBook;

  constructor(
    readonly target: HttpTarget,
    readonly recorder: Recorder = new Recorder(),
    opts: HttpTransportOptions = {},
  ) {
    this.maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
    this.paramHeaders = opts.paramHeaders ?? new ParamHeaderBook();
    this.auxTimeoutMs = opts.auxTimeoutMs ?? 2000;
    this.drains = opts.backgroundReads;
  }

  get closed(): CloseInfo | undefined {
    return this.closedInfo;
  }

  /** Legacy `Mcp-Session-Id` (HL-07), echoed on every later request. Captured automatically from responses. */
  setSessionId(id: string | undefined): void {
    this.sessionId = id;
  }

  getSessionId(): string | undefined {
    return this.sessionId;
  }

  /** Send on a legacy session another transport opened; close() then leaves it open (no DELETE). */
  adoptSession(id: string, protocolVersion: string): void {
    this.sessionId = id;
    this.protocolVersion = protocolVersion;
    this.borrowed = true;
  }

  /** `MCP-Protocol-Version` header (HL-08 / HM-06); undefined = not sent. */
  setProtocolVersionHeader(v: string | undefined): void {
    this.protocolVersion = v;
  }

  /** Modern mirror headers `Mcp-Method` / `Mcp-Name` on request POSTs (HM-08). */
  setModernHeaders(on: boolean): void {
    this.modern = on;
  }

  private readNextToEnd = false;

  /** Transport-layer fuzzing: read the next exchange's SSE answer to the end of its stream (sseRead says how it ended). */
  readNextStreamToEnd(): void {
    this.readNextToEnd = true;
  }

  private standalone?: { controller: AbortController; reading: Promise<unknown> };

  /**
   * Legacy (HL-05): open the session's standalone GET stream, as SDK clients do, and read it in the
   * background until close(). What comes on it is recorded (`data.stream: 'get'`), and server requests
   * on it are answered like those on a POST's stream. The GET's status and content type; undefined
   * when the request itself failed (or a stream is already open).
   */
  async openStandaloneStream(timeoutMs: number): Promise<{ status: number; contentType?: string } | undefined> {
    if (this.standalone || this.modern) return undefined;
    const controller = new AbortController();
    const headers = this.baseHeaders('GET', undefined);
    this.recorder.record({ dir: 'out', channel: 'http', raw: '', http: { method: 'GET', headers: redactHeaders(headers), url: this.target.url } });
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let res: HttpResponse;
    try {
      res = await sendHttp(this.target.url, { method: 'GET', headers, signal: controller.signal });
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    this.recorder.record({ dir: 'in', channel: 'http', kind: 'http-response', raw: '', http: { method: 'GET', status: res.status, headers: redactHeaders(res.headers), url: res.url } });
    const contentType = res.headers['content-type'];
    if (res.status !== 200 || !contentType?.toLowerCase().startsWith('text/event-stream')) {
      res.body.destroy();
      return { status: res.status, ...(contentType ? { contentType } : {}) };
    }
    const parser = createParser({
      onEvent: (ev) => {
        if (ev.data === '') return; // priming
        const data: Record<string, unknown> = { stream: 'get' };
        if (ev.id !== undefined) data.sseId = ev.id;
        const p = this.recordSseData(ev.data, data);
        if (p.ok && isRequest(p.value)) this.answerServerRequest(p.value);
      },
    });
    const reading = readBounded(res.body, this.maxBody, (t) => void parser.feed(t)).catch(() => undefined);
    this.standalone = { controller, reading };
    return { status: res.status, contentType };
  }

  /** Nothing to start: reachability is checked by the first request (TargetStartError if it fails). */
  async open(): Promise<void> {
    return;
  }

  async exchange(body: unknown, opts: ExchangeOptions): Promise<ExchangeResult> {
    const started = Date.now();
    const method = opts.httpMethod ?? 'POST';
    const text = method === 'POST' ? serializeBody(body) : undefined;
    const parsed =
      typeof body === 'string' ? tryParseJson(body) : body === undefined ? ({ ok: false } as const) : { ok: true as const, value: body };
    const headers = applyHeaderOverrides(this.baseHeaders(method, parsed.ok ? parsed.value : undefined), opts.headers);
    const readToEnd = this.readNextToEnd;
    this.readNextToEnd = false;

    const messages: unknown[] = [];
    const seq: number[] = [];
    let response: unknown;
    let firstResponse: unknown;
    const controller = new AbortController();
    let timedOut = false;
    let aborted = false;
    let finishedEarly = false;
    /** An SSE response's answer arrived and nothing more is wanted from its stream. */
    let answered = false;
    /** 2026-07-28: an InputRequiredResult ended the wait; the stream is read on to its end (IR-15). */
    let trailing = false;
    let streamBroken = false;
    let sseRead: 'ended' | 'open' | undefined;
    const eventIds: string[] = [];
    /** SSE: whether the first event was a priming event (an id, empty data: HL-04). */
    let primed: boolean | undefined;
    /** SSE: how the stream went on after its response, when known at once. */
    let afterAnswer: HttpOutcome['sseAfterAnswer'];
    /** SSE: the answered stream was still open after the grace; set once the outcome exists. */
    let drainLater: ((http: HttpOutcome) => void) | undefined;
    /** SSE, legacy: the server closed the answer's stream before the response; each resumption. */
    const resumptions: NonNullable<HttpOutcome['resumed']> = [];
    const timer = setTimeout(() => {
      if (!answered) timedOut = true;
      controller.abort();
    }, opts.timeoutMs);
    const onAbort = () => {
      if (!answered) aborted = true; // the response had arrived: only the rest of its stream is cut
      controller.abort();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    const sent = this.recorder.record({
      dir: 'out',
      channel: 'http',
      raw: text ?? '',
      kind: parsed.ok && isJsonRpcMessage(parsed.value) ? 'message' : undefined,
      message: parsed.ok ? parsed.value : undefined,
      http: { method, headers: redactHeaders(headers), url: this.target.url },
    });
    seq.push(sent.seq);
    if (text !== undefined) this.lastSent = text.length > LAST_SENT_CHARS ? `${text.slice(0, LAST_SENT_CHARS)}…` : text;

    const result = (extra: Partial<ExchangeResult> = {}): ExchangeResult => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const r: ExchangeResult = { messages, timedOut: timedOut && !aborted, elapsedMs: Date.now() - started, seq, ...extra };
      if (aborted) r.aborted = true;
      const chosen = response ?? firstResponse;
      if (chosen !== undefined) r.response = chosen;
      // A tools/list answer says which arguments later tools/call requests mirror into headers (HM-10).
      if (parsed.ok && isObj(parsed.value) && parsed.value.method === 'tools/list' && isObj(chosen)) this.paramHeaders.learn(chosen.result);
      return r;
    };
    const noteTimeout = () =>
      this.recorder.record({
        dir: 'note',
        channel: 'http',
        kind: 'timeout',
        raw: `no ${opts.expectId !== undefined ? `response with id ${JSON.stringify(opts.expectId)}` : 'HTTP response'} within ${opts.timeoutMs} ms`,
        data: { expectId: opts.expectId ?? null, timeoutMs: opts.timeoutMs },
      });

    try {
      checkHeaders(headers);
    } catch (err) {
      // CR/LF/NUL in an override: a bug in the calling test, not something the target did.
      clearTimeout(timer);
      throw new Error(`invalid HTTP header in exchange options: ${(err as Error).message}`);
    }
    let res: HttpResponse;
    try {
      res = await sendHttp(this.target.url, { method, headers, body: text, signal: controller.signal });
    } catch (err) {
      if (aborted) return result();
      if (timedOut) {
        noteTimeout();
        return result();
      }
      clearTimeout(timer);
      const why = describeNetworkError(err);
      if (!this.reachable) throw new TargetStartError(`cannot reach ${this.target.url}: ${why.text}`, why.code);
      return result({ closed: this.markLost(why.text) });
    }
    this.reachable = true;
    const resHeaders = res.headers;
    const sid = res.headers['mcp-session-id'];
    if (sid !== undefined && sid !== this.sessionId) {
      this.sessionId = sid;
      this.recorder.note('http', 'session-id', `server assigned Mcp-Session-Id ${sid}`, { sessionId: sid });
    }
    const contentType = res.headers['content-type'];
    const isSse = contentType?.toLowerCase().startsWith('text/event-stream') ?? false;
    const head = this.recorder.record({
      dir: 'in',
      channel: 'http',
      kind: 'http-response',
      raw: '',
      http: { method, status: res.status, headers: redactHeaders(resHeaders), url: res.url },
    });
    seq.push(head.seq);
    if (isSse && opts.sseHeadOnly) {
      res.body.destroy(); // the stream itself is not wanted (a standalone GET stream stays open)
      const http: HttpOutcome = { status: res.status, headers: resHeaders, body: '', contentType: contentType! };
      return result({ http });
    }

    const waitsForId = opts.expectId !== undefined;
    // Everything on this HTTP response answers this POST alone: an id-less answer is attributable.
    const accept = (msg: unknown): boolean => {
      // Returns true when this message ends the exchange.
      messages.push(msg);
      seq.push(this.recorder.lastSeq());
      if (isRequest(msg)) {
        this.answerServerRequest(msg);
        return false;
      }
      if (!isResponse(msg)) return false;
      const id = responseId(msg);
      if (id === undefined) {
        firstResponse ??= msg;
        return !waitsForId || opts.idless === true;
      }
      if (!waitsForId) {
        firstResponse ??= msg;
        return true;
      }
      const m = idMatch(id, opts.expectId!);
      if (m === 'none') {
        // On a resumed stream, a response to another request was replayed from another stream (HL-06).
        if (resumptions.length) (resumptions[resumptions.length - 1].foreignIds ??= []).push(id);
        return false;
      }
      // An exact id wins; a loose one (1 vs "1") also ends the wait so a check can flag the id type.
      if (m === 'exact' || response === undefined) response = msg;
      return true;
    };

    let bodyText = '';
    const keep = (t: string) => {
      if (bodyText.length < this.maxBody) bodyText += t; // readBounded already caps the bytes
    };
    try {
      if (isSse) {
        let lastEventId: string | undefined;
        let retryMs: number | undefined;
        const onEvent = (ev: EventSourceMessage) => {
          if (ev.id !== undefined && ev.id !== '') {
            eventIds.push(ev.id);
            lastEventId = ev.id;
          }
          primed ??= ev.id !== undefined && ev.id !== '' && ev.data === '';
          if (finishedEarly && !readToEnd && !trailing) {
            // Already read with the answer (the same chunk): recorded after it and kept among the
            // stream's messages (not its seqs, which end at the answer), so oracles see what a server
            // sent behind its response (PR-01, CN-01, JR-04).
            if (ev.data !== '') {
              const p = this.recordSseData(ev.data, { ...(ev.id !== undefined ? { sseId: ev.id } : {}), afterResponse: true });
              messages.push(p.ok ? p.value : ev.data);
            }
            return;
          }
          if (ev.data === '') return; // priming event (HL-04): carries only an id
          const data: Record<string, unknown> = {};
          if (ev.id !== undefined) data.sseId = ev.id;
          if (ev.event !== undefined) data.sseEvent = ev.event;
          if (trailing) data.afterResponse = true;
          const p = this.recordSseData(ev.data, data);
          if (trailing) {
            // IR-15: kept as evidence only (nothing may follow an InputRequiredResult on its stream).
            messages.push(p.ok ? p.value : ev.data);
            seq.push(this.recorder.lastSeq());
            return;
          }
          if (p.ok && isJsonRpcMessage(p.value) && accept(p.value)) {
            finishedEarly = true;
            trailing = isInputRequired(response ?? firstResponse);
          }
        };
        /** Read one SSE body (the answer's, or a resumed one) until the answer, or its end. */
        const readStream = async (body: HttpResponse['body']) => {
          const parser = createParser({ onEvent, onRetry: (ms) => (retryMs = ms) });
          let onAnswer!: () => void;
          const answer = new Promise<void>((resolve) => (onAnswer = resolve));
          const reading = readBounded(body, this.maxBody, (t) => {
            if (answered) return undefined; // the rest of the stream after the answer: dropped unread
            keep(t);
            parser.feed(t);
            if (finishedEarly && !readToEnd && !trailing) {
              answered = true;
              onAnswer();
            }
            return undefined;
          });
          const out = await Promise.race([reading, answer.then(() => undefined)]);
          if (out?.overflow) this.noteOversize();
          if (finishedEarly && readToEnd) sseRead = 'ended';
          if (finishedEarly && (readToEnd || trailing)) afterAnswer = 'ended';
          else if (answered) {
            // The response arrived; the rest of the stream is not wanted (IR-15: after an
            // InputRequiredResult it is, see trailing). Servers usually end the stream right after
            // the response: a moment's wait for that end keeps the connection for the next request.
            let grace: NodeJS.Timeout | undefined;
            const ended = await Promise.race([
              reading.then(() => true, () => false),
              new Promise<false>((resolve) => (grace = setTimeout(() => resolve(false), DRAIN_GRACE_MS))),
            ]);
            clearTimeout(grace);
            if (ended) afterAnswer = 'ended';
            else if (!this.drains) controller.abort();
            else {
              // Read on in the background until the stream ends or a whole request timeout has passed
              // since the answer (a slow server's late answer gets the same wait as a fast one's):
              // whether the server ends a stream after its response (HL-04, HM-04) is known only then.
              drainLater = (http) => this.drainRest(reading, controller, opts.timeoutMs, opts.signal, http, head.seq);
            }
          }
          return out;
        };
        let out = await readStream(res.body);
        // 2025-11-25 (HL-04): after an event with an id, a server may close the connection before
        // the answer; the client waits `retry` ms and resumes the stream with GET and Last-Event-ID.
        // 2026-07-28 streams are not resumable (HM-05): the session sends the request again instead.
        for (let resumes = 0; !this.modern && method === 'POST' && waitsForId && !finishedEarly && !out?.overflow && lastEventId !== undefined && resumes < MAX_RESUMES; resumes++) {
          resumptions.push(retryMs === undefined ? { afterEventId: lastEventId } : { afterEventId: lastEventId, retryMs });
          const resumption = resumptions[resumptions.length - 1];
          const resumed = await this.resumeStream(lastEventId, retryMs, controller.signal, seq, () => Date.now() - started < opts.timeoutMs, (status, refused) => Object.assign(resumption, { status }, refused ? { refused } : {}));
          if (!resumed) break;
          out = await readStream(resumed.body);
          if (finishedEarly) resumption.answered = true;
        }
        if (!finishedEarly && waitsForId && response === undefined) {
          this.recorder.note('http', 'stream-ended', `SSE stream ended without a response with id ${JSON.stringify(opts.expectId)}`);
          streamBroken = true;
        }
      } else {
        const out = await readBounded(res.body, this.maxBody, (t) => keep(t));
        if (out.overflow) this.noteOversize();
        this.recordBody(bodyText, contentType, out.overflow, accept);
      }
    } catch (err) {
      if (aborted) {
        // the run ended: nothing to note
      } else if (timedOut && readToEnd && finishedEarly) {
        // The answer came, but the stream stayed open until the timeout.
        timedOut = false;
        sseRead = 'open';
      } else if (trailing) {
        // After an InputRequiredResult the stream was read on until its end or the timeout (IR-15):
        // the answer itself came in time.
        timedOut = false;
        controller.abort();
        this.recorder.note('http', 'stream-open', 'the SSE stream stayed open after its InputRequiredResult until the timeout');
      } else if (timedOut) {
        if (waitsForId || opts.idless) noteTimeout();
        else timedOut = false; // a notification's stream that never ended is not a missed answer
      } else if (!finishedEarly) {
        const why = describeNetworkError(err);
        this.recorder.note('http', 'stream-error', `response body broke off: ${why.text}`, { code: why.code });
        streamBroken = true;
      }
    }
    const http: HttpOutcome = { status: res.status, headers: resHeaders, body: bodyText };
    if (contentType !== undefined) http.contentType = contentType;
    if (eventIds.length) http.eventIds = eventIds;
    if (primed !== undefined) http.ssePrimed = primed;
    if (afterAnswer) http.sseAfterAnswer = afterAnswer;
    if (resumptions.length) http.resumed = resumptions;
    drainLater?.(http);
    return result({ ...(streamBroken && response === undefined ? { http, streamBroken: true } : { http }), ...(sseRead ? { sseRead } : {}) });
  }

  /**
   * Resume a legacy SSE answer the server closed before its response (HL-04): wait the `retry` the
   * server gave, then GET with Last-Event-ID. The SSE response to that, or undefined when the
   * server refused it (the caller then treats the stream as broken). Aborted with the exchange.
   */
  private async resumeStream(lastEventId: string, retryMs: number | undefined, signal: AbortSignal, seq: number[], inTime: () => boolean, onAnswer: (status: number, refused: boolean) => void): Promise<HttpResponse | undefined> {
    if (!HEADER_SAFE.test(lastEventId)) {
      this.recorder.note('http', 'stream-not-resumed', `the last event id ${JSON.stringify(lastEventId)} cannot be sent as a Last-Event-ID header`);
      return undefined;
    }
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, retryMs ?? DEFAULT_RESUME_DELAY_MS);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    if (!inTime()) return undefined;
    const headers = { ...this.baseHeaders('GET', undefined), 'Last-Event-ID': lastEventId };
    const sent = this.recorder.record({ dir: 'out', channel: 'http', raw: '', http: { method: 'GET', headers: redactHeaders(headers), url: this.target.url } });
    seq.push(sent.seq);
    this.recorder.note('http', 'stream-resumed', `the SSE stream closed before its response; resuming it after event ${JSON.stringify(lastEventId)}${retryMs !== undefined ? ` (retry ${retryMs} ms)` : ''}`, { lastEventId, retryMs: retryMs ?? null });
    const res = await sendHttp(this.target.url, { method: 'GET', headers, signal });
    const head = this.recorder.record({ dir: 'in', channel: 'http', kind: 'http-response', raw: '', http: { method: 'GET', status: res.status, headers: redactHeaders(res.headers), url: res.url } });
    seq.push(head.seq);
    const resumed = res.status === 200 && (res.headers['content-type']?.toLowerCase().startsWith('text/event-stream') ?? false);
    onAnswer(res.status, !resumed);
    if (resumed) return res;
    let text = '';
    await readBounded(res.body, 64 * 1024, (t) => void (text += t)).catch(() => undefined);
    if (text) this.recorder.record({ dir: 'in', channel: 'http', raw: text });
    return undefined;
  }

  /**
   * The rest of an answered SSE stream, read and dropped in the background until the stream ends
   * (`sseAfterAnswer: 'ended'`) or `waitMs` (a request timeout) has passed since the answer (`'open'`,
   * and the stream is cut). The run ending first leaves it unknown.
   */
  private drainRest(reading: Promise<{ overflow: boolean }>, controller: AbortController, waitMs: number, signal: AbortSignal | undefined, http: HttpOutcome, headSeq: number): void {
    let finish!: (how: 'ended' | 'open' | undefined) => void;
    const drained = new Promise<void>((resolve) => {
      let done = false;
      finish = (how) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (how) http.sseAfterAnswer = how;
        if (how === 'open') {
          this.recorder.note('http', 'stream-open', `the SSE stream stayed open for ${waitMs} ms after its response`, { headSeq });
        }
        if (how !== 'ended') controller.abort();
        resolve();
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish('open'), waitMs);
      if (signal?.aborted) return finish(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A stream cut by the server (a reset) after its response has ended too; one past the body cap is
      // unknown, and so is one that ended once mcpspec was closing the session (its DELETE ends held
      // streams: how long a session lives after an answer is timing, not the server's doing).
      reading.then((o) => finish(o.overflow || this.closing ? undefined : 'ended'), () => finish(this.closing ? undefined : 'ended'));
    });
    this.drains?.add(drained, () => finish(undefined));
  }

  async close(): Promise<CloseInfo | undefined> {
    this.closing = true;
    const standalone = this.standalone;
    if (standalone) {
      standalone.controller.abort();
      await standalone.reading;
    }
    // Let in-flight replies to server requests finish (bounded).
    await Promise.race([Promise.allSettled([...this.replies]), new Promise((r) => setTimeout(r, this.auxTimeoutMs).unref())]);
    if (this.sessionId !== undefined && !this.borrowed && !this.closedInfo && this.reachable) {
      // HL-07: a client SHOULD end its session with DELETE; 405 means the server does not allow it.
      try {
        await this.exchange(undefined, { httpMethod: 'DELETE', timeoutMs: this.auxTimeoutMs });
      } catch {
        // ignore: the session is over either way
      }
      this.sessionId = undefined;
    }
    return this.closedInfo;
  }

  // --- internals -----------------------------------------------------------------------------

  private baseHeaders(method: 'POST' | 'GET' | 'DELETE', body: unknown): Record<string, string> {
    const h: Record<string, string> = {};
    if (method === 'POST') {
      h['Content-Type'] = 'application/json';
      h.Accept = ACCEPT_BOTH;
    } else if (method === 'GET') {
      h.Accept = 'text/event-stream';
    }
    Object.assign(h, this.target.headers ?? {});
    // 2026-07-28 has no sessions: a session id a server hands out there is noted (http.modern-no-session-id judges it), never echoed.
    if (this.sessionId !== undefined && !this.modern) h['Mcp-Session-Id'] = this.sessionId;
    if (this.protocolVersion !== undefined) h['MCP-Protocol-Version'] = this.protocolVersion;
    if (this.modern && method === 'POST') Object.assign(h, modernHeadersFor(body), this.paramHeaders.headersFor(body));
    return h;
  }

  /** A non-SSE body: one JSON-RPC message (or an id-less error), or something else to keep as evidence. */
  private recordBody(text: string, contentType: string | undefined, cut: boolean, accept: (m: unknown) => boolean): void {
    if (text === '') return; // 202 and friends
    const p = cut ? ({ ok: false } as const) : tryParseJson(text);
    const claimsJson = contentType?.toLowerCase().includes('json') ?? false;
    if (!p.ok) {
      // Plain-text error pages are allowed (HL-02 "MAY"); only a body labelled JSON that is not JSON is a finding.
      this.recorder.record({ dir: 'in', channel: 'http', kind: claimsJson ? 'parse-error' : undefined, raw: text, truncated: cut });
      return;
    }
    const items = Array.isArray(p.value) ? p.value : [p.value];
    this.recorder.record({
      dir: 'in',
      channel: 'http',
      kind: items.some(isJsonRpcMessage) ? 'message' : undefined,
      raw: text,
      message: p.value,
    });
    for (const m of items) if (isJsonRpcMessage(m)) accept(m);
  }

  /** Legacy servers may send requests inside an SSE response; answer each by POSTing the reply. */
  private answerServerRequest(req: ServerRequest): void {
    const run = async () => {
      const reply = await replyToServerRequest(this.onServerRequest, req);
      if (reply === undefined) return;
      try {
        await this.exchange(reply, { timeoutMs: this.auxTimeoutMs });
      } catch {
        // the reply is best effort; the recorder has the attempt
      }
    };
    const p = run().finally(() => this.replies.delete(p));
    this.replies.add(p);
  }

  /** Record one SSE event's data: a JSON-RPC message, other JSON, or a parse error. */
  private recordSseData(raw: string, data: Record<string, unknown>): ReturnType<typeof tryParseJson> {
    const p = tryParseJson(raw);
    if (!p.ok) this.recorder.record({ dir: 'in', channel: 'http', kind: 'parse-error', raw, data });
    else this.recorder.record({ dir: 'in', channel: 'http', kind: isJsonRpcMessage(p.value) ? 'message' : undefined, raw, message: p.value, data });
    return p;
  }

  private noteOversize(): void {
    this.recorder.note('http', 'body-too-large', `response body exceeded ${this.maxBody} bytes and was cut`, {
      maxBodyBytes: this.maxBody,
    });
  }

  private markLost(why: string): CloseInfo {
    const info: CloseInfo = { exitCode: null, signal: null, stderrTail: '' };
    if (this.lastSent !== undefined) info.lastSent = this.lastSent;
    this.closedInfo = info;
    this.recorder.record({
      dir: 'note',
      channel: 'http',
      kind: 'process-exit',
      raw: `lost the connection to ${this.target.url}: ${why}`,
      data: { expected: false, reason: why },
    });
    return info;
  }
}

/** A response whose result is an InputRequiredResult (2026-07-28 `resultType: "input_required"`). */
function isInputRequired(msg: unknown): boolean {
  if (typeof msg !== 'object' || msg === null) return false;
  const r = (msg as { result?: unknown }).result;
  return typeof r === 'object' && r !== null && (r as { resultType?: unknown }).resultType === 'input_required';
}
