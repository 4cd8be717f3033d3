// A mutation: one rule of the spec broken in otherwise untouched traffic. Like a check it is a
// record (stable id, the requirement IDs it breaks, role, eras, transports) with behaviour beside
// it: hooks the mutating proxy calls for each message. A hook that returns undefined leaves the
// message as it was, so the proxy knows whether the mutation ever applied to a target's traffic.

import type { RequestId } from '../protocol/jsonrpc.js';
import type { Era } from '../protocol/versions.js';
import type { Role, TransportKind } from '../results/check-record.js';

/** The request a message belongs to, as the proxy saw it go by. */
export interface SeenRequest {
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
  era: Era;
}

/** What a hook knows besides the message itself. */
export interface MutationContext {
  transport: TransportKind;
  /** The era of the exchange: modern when the request carried the 2026-07-28 `_meta` envelope. */
  era: Era;
  /** For a response: the request it answers (when its id was seen going the other way). */
  request?: SeenRequest;
  /** Scratch space that lives as long as the proxy: for mutations that act across messages. */
  state: Record<string, unknown>;
  /** How often this mutation has applied so far. */
  applied: number;
  /** Sends a message back to the side this one came from (a proxy answering in the peer's place). */
  reply(message: Emitted): void;
}

/**
 * What a hook sends on instead of the message: any number of JSON values (none drops it), or raw
 * text for framing mutations (`{ raw }` is written as it is: on stdio as stdout text, on HTTP as the
 * body or an SSE event's data).
 */
export type Emitted = unknown;
export interface Raw {
  raw: string;
}
export function raw(text: string): Raw {
  return { raw: text };
}
export function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && typeof (v as Raw).raw === 'string' && Object.keys(v).length === 1;
}

/** One HTTP answer as the proxy is about to send it back to the client. */
export interface HttpAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The JSON-RPC messages of the body: one for a JSON body, the data events of an SSE body. */
  messages: Emitted[];
  sse: boolean;
  /** The request POSTed (GET streams and bodyless requests: undefined). */
  request?: SeenRequest;
  method: string;
}

/** One HTTP request as the proxy is about to send it on to the server. */
export interface HttpAsk {
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: Emitted;
}

export interface MutationRecord {
  /** Stable id `area.what-breaks`. */
  id: string;
  /** Requirement IDs of the requirements digest this mutation breaks. */
  requirements: readonly string[];
  /** Requirement IDs whose checks also count as catching it (a near rule of the same exchange). */
  related?: readonly string[];
  /** The side that appears to break the rule: `server` mutates what a server sends, `client` what a client sends. */
  role: Role;
  eras: readonly Era[];
  transports: readonly TransportKind[];
  /** One line: what the mutation does to the traffic. */
  description: string;
}

export interface MutationHooks {
  /** A message on its way to the client (responses, notifications, legacy server requests). */
  toClient?(message: Record<string, unknown>, ctx: MutationContext): Emitted[] | undefined;
  /** A message on its way to the server. */
  toServer?(message: Record<string, unknown>, ctx: MutationContext): Emitted[] | undefined;
  /** An HTTP answer after its messages went through `toClient`. */
  httpAnswer?(answer: HttpAnswer, ctx: MutationContext): HttpAnswer | undefined;
  /** An HTTP request before it is sent on. */
  httpAsk?(ask: HttpAsk, ctx: MutationContext): HttpAsk | undefined;
  /** A stdout line of a stdio server after its message went through `toClient` (framing). */
  stdoutLine?(line: string, ctx: MutationContext): string[] | undefined;
  /** stdio: the client closed the server's input; true keeps the server's stdin open (it never sees the end). */
  stdinEnd?(ctx: MutationContext): boolean;
}

export type Mutation = MutationRecord & MutationHooks;

/** Who and where, for the common cases: spread into a record. */
export const SERVER_ANY = { role: 'server', eras: ['legacy', 'modern'], transports: ['stdio', 'http'] } as const;
export const SERVER_MODERN = { role: 'server', eras: ['modern'], transports: ['stdio', 'http'] } as const;
export const SERVER_LEGACY = { role: 'server', eras: ['legacy'], transports: ['stdio', 'http'] } as const;
export const CLIENT_ANY = { role: 'client', eras: ['legacy', 'modern'], transports: ['stdio', 'http'] } as const;
export const CLIENT_MODERN = { role: 'client', eras: ['modern'], transports: ['stdio', 'http'] } as const;
export const CLIENT_LEGACY = { role: 'client', eras: ['legacy'], transports: ['stdio', 'http'] } as const;

/** Declares a mutation; the catalogue test checks every record's fields. */
export function mutation(m: Mutation): Mutation {
  return m;
}
