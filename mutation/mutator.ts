// The state one mutating proxy keeps: the requests seen in each direction (so an answer is known by
// the request it answers), the era of each exchange, and how often the mutation applied. Both
// proxies (stdio and HTTP) hand every message through here.

import { appendFileSync } from 'node:fs';
import { isObj, isRequest, isResponse, type RequestId } from '../protocol/jsonrpc.js';
import { META_PROTOCOL_VERSION } from '../protocol/meta.js';
import type { Era } from '../protocol/versions.js';
import type { TransportKind } from '../results/check-record.js';
import type { Emitted, HttpAnswer, HttpAsk, Mutation, MutationContext, SeenRequest } from './mutation.js';

/** Bound on remembered requests: a long run must not grow the proxy without limit. */
const MAX_REMEMBERED = 5000;

export function eraOfRequest(message: Record<string, unknown>): Era {
  const params = message.params;
  return isObj(params) && isObj(params._meta) && META_PROTOCOL_VERSION in params._meta ? 'modern' : 'legacy';
}

function key(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

export class Mutator {
  /** Requests the client sent, by id, until answered. */
  private readonly fromClient = new Map<string, SeenRequest>();
  /** Requests the server sent (legacy: sampling, elicitation, roots, ping). */
  private readonly fromServer = new Map<string, SeenRequest>();
  private readonly state: Record<string, unknown> = {};
  private lastEra: Era = 'legacy';
  applied = 0;
  /** Messages hooks sent back to where the current message came from; the proxy takes them after each call. */
  private replies: Emitted[] = [];

  constructor(
    readonly mutation: Mutation,
    readonly transport: TransportKind,
    /** Where each application is logged, one JSON line (the score reads it: applied or not applicable). */
    private readonly appliedLog?: string,
  ) {}

  private ctx(era: Era, request?: SeenRequest): MutationContext {
    return { transport: this.transport, era, request, state: this.state, applied: this.applied, reply: (m) => this.replies.push(m) };
  }

  /** What the last hook sent back to the sender of its message. */
  takeReplies(): Emitted[] {
    const out = this.replies;
    this.replies = [];
    return out;
  }

  private fits(era: Era): boolean {
    return this.mutation.eras.includes(era);
  }

  private note(where: string, detail: string): void {
    this.applied += 1;
    if (!this.appliedLog) return;
    try {
      appendFileSync(this.appliedLog, `${JSON.stringify({ mutation: this.mutation.id, where, detail, at: Date.now() })}\n`);
    } catch {
      // The log is for the score; a proxy never fails its traffic over it.
    }
  }

  private remember(book: Map<string, SeenRequest>, message: Record<string, unknown>): SeenRequest | undefined {
    if (!isRequest(message)) return undefined;
    const era = eraOfRequest(message);
    const seen: SeenRequest = { id: message.id, method: message.method, params: isObj(message.params) ? message.params : {}, era };
    if (book.size >= MAX_REMEMBERED) book.delete(book.keys().next().value as string);
    book.set(key(message.id), seen);
    return seen;
  }

  /** The request a response answers, looked up in the book of the other side. */
  private answered(book: Map<string, SeenRequest>, message: Record<string, unknown>): SeenRequest | undefined {
    if (!isResponse(message)) return undefined;
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    return book.get(key(id));
  }

  /** The request a client message is, as the proxy records it (before any mutation). */
  seenFromClient(message: unknown): SeenRequest | undefined {
    return isObj(message) && isRequest(message) ? { id: message.id, method: message.method, params: isObj(message.params) ? message.params : {}, era: eraOfRequest(message) } : undefined;
  }

  /** A message from the client, on its way to the server. */
  toServer(message: unknown): Emitted[] {
    if (!isObj(message)) return [message];
    const seen = this.remember(this.fromClient, message);
    if (seen) this.lastEra = seen.era;
    const answering = this.answered(this.fromServer, message);
    const era = seen?.era ?? answering?.era ?? this.lastEra;
    const hook = this.mutation.toServer;
    if (!hook || !this.fits(era)) return [message];
    const out = hook(structuredClone(message), this.ctx(era, answering));
    if (out === undefined) return [message];
    this.note('toServer', String(message.method ?? `response ${String(message.id)}`));
    return out;
  }

  /** A message from the server, on its way to the client. `post`: the request an HTTP answer belongs to. */
  toClient(message: unknown, post?: SeenRequest): Emitted[] {
    if (!isObj(message)) return [message];
    // Over HTTP an answer belongs to the POST it came on: ids are only unique per session there, and
    // many sessions share one proxy.
    const onPost = post && isResponse(message) && message.id === post.id ? post : undefined;
    const request = onPost ?? this.answered(this.fromClient, message);
    this.remember(this.fromServer, message);
    const era = request?.era ?? post?.era ?? this.lastEra;
    const hook = this.mutation.toClient;
    if (!hook || !this.fits(era)) return [message];
    const out = hook(structuredClone(message), this.ctx(era, request ?? (isResponse(message) ? undefined : post)));
    if (out === undefined) return [message];
    this.note('toClient', request ? `answer to ${request.method}` : String(message.method ?? 'message'));
    return out;
  }

  /** Forget a request once its answer went by (ids may be reused once answered, JR-03). */
  settle(message: unknown): void {
    if (!isObj(message) || !isResponse(message)) return;
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    this.fromClient.delete(key(id));
  }

  httpAnswer(answer: HttpAnswer): HttpAnswer {
    const era = answer.request?.era ?? this.lastEra;
    const hook = this.mutation.httpAnswer;
    if (!hook || !this.fits(era)) return answer;
    const out = hook(answer, this.ctx(era, answer.request));
    if (out === undefined) return answer;
    this.note('httpAnswer', `${answer.method} ${answer.request?.method ?? ''} -> ${answer.status}`);
    return out;
  }

  httpAsk(ask: HttpAsk, request?: SeenRequest): HttpAsk {
    const era = request?.era ?? this.lastEra;
    const hook = this.mutation.httpAsk;
    if (!hook || !this.fits(era)) return ask;
    const out = hook(ask, this.ctx(era, request));
    if (out === undefined) return ask;
    this.note('httpAsk', `${ask.method} ${request?.method ?? ''}`);
    return out;
  }

  stdoutLine(line: string, request?: SeenRequest): string[] {
    const era = request?.era ?? this.lastEra;
    const hook = this.mutation.stdoutLine;
    if (!hook || !this.fits(era)) return [line];
    const out = hook(line, this.ctx(era, request));
    if (out === undefined) return [line];
    this.note('stdoutLine', request?.method ?? 'line');
    return out;
  }

  /** stdio: whether the server's stdin stays open after the client closed its own. */
  keepStdinOpen(): boolean {
    const hook = this.mutation.stdinEnd;
    if (!hook || !this.fits(this.lastEra) || !hook(this.ctx(this.lastEra))) return false;
    this.note('stdinEnd', 'stdin kept open');
    return true;
  }

  /** The request a server line answers (for framing hooks, which see text). */
  requestFor(message: unknown): SeenRequest | undefined {
    return isObj(message) ? this.answered(this.fromClient, message) : undefined;
  }
}
