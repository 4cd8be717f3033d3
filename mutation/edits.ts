// Building blocks for mutation hooks: pick the messages a mutation is about (answers to some
// methods, notifications of a kind, requests of a kind) and edit them in place. An edit returns
// false when the message offered it nothing to change (the mutation did not apply to it).

import { isObj, isRequest, isResponse } from '../protocol/jsonrpc.js';
import type { Emitted, MutationContext, MutationHooks } from './mutation.js';

type Obj = Record<string, unknown>;
export type Edit<T = Obj> = (value: T, ctx: MutationContext, message: Obj) => boolean;

/** Methods to match: a list, or every method ('*'). */
export type Methods = readonly string[] | '*';

function matches(methods: Methods, method: string | undefined): boolean {
  return method !== undefined && (methods === '*' || methods.includes(method));
}

/** Successful answers to these methods: the edit gets the `result` object. */
export function onResult(methods: Methods, edit: Edit): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(message, ctx) {
      if (!isResponse(message) || !isObj(message.result) || !matches(methods, ctx.request?.method)) return undefined;
      return edit(message.result, ctx, message) ? [message] : undefined;
    },
  };
}

/** Error answers to these methods: the edit gets the `error` object. */
export function onError(methods: Methods, edit: Edit): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(message, ctx) {
      if (!isResponse(message) || !isObj(message.error) || !matches(methods, ctx.request?.method)) return undefined;
      return edit(message.error, ctx, message) ? [message] : undefined;
    },
  };
}

/** Any answer (result or error) to these methods: the edit gets the whole response. */
export function onAnswer(methods: Methods, edit: (message: Obj, ctx: MutationContext) => Emitted[] | undefined): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(message, ctx) {
      if (!isResponse(message) || !matches(methods, ctx.request?.method)) return undefined;
      return edit(message, ctx);
    },
  };
}

/** Notifications the server sends, of these methods: the edit gets the whole notification. */
export function onNotification(methods: Methods, edit: (message: Obj, ctx: MutationContext) => Emitted[] | undefined): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(message, ctx) {
      if ('id' in message || typeof message.method !== 'string' || !matches(methods, message.method)) return undefined;
      return edit(message, ctx);
    },
  };
}

/** Requests the client sends, of these methods: the edit gets the whole request (client-role mutations). */
export function onClientRequest(methods: Methods, edit: (message: Obj, ctx: MutationContext) => Emitted[] | undefined): Pick<MutationHooks, 'toServer'> {
  return {
    toServer(message, ctx) {
      if (!isRequest(message) || !matches(methods, message.method)) return undefined;
      return edit(message, ctx);
    },
  };
}

/** Requests the server sends its client (legacy era), of these methods. */
export function onServerRequest(methods: Methods, edit: (message: Obj, ctx: MutationContext) => Emitted[] | undefined): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(message, ctx) {
      if (!isRequest(message) || !matches(methods, message.method)) return undefined;
      return edit(message, ctx);
    },
  };
}

/** Deletes a key when present. */
export function drop(o: unknown, k: string): boolean {
  if (!isObj(o) || !(k in o)) return false;
  delete o[k];
  return true;
}

/** Sets a key to a value (applies when the key is present, or always with `always`). */
export function put(o: unknown, k: string, v: unknown, always = false): boolean {
  if (!isObj(o) || (!always && !(k in o))) return false;
  o[k] = v;
  return true;
}

/** The result's `_meta`, created when missing. */
export function metaOf(o: Obj): Obj {
  if (!isObj(o._meta)) o._meta = {};
  return o._meta as Obj;
}

/** The n-th (0-based) time the mutation saw this kind of message, counted in its state. */
export function nth(ctx: MutationContext, counter: string): number {
  const n = typeof ctx.state[counter] === 'number' ? (ctx.state[counter] as number) : 0;
  ctx.state[counter] = n + 1;
  return n;
}

/** An array field with at least `min` items. */
export function list(o: unknown, k: string, min = 1): unknown[] | undefined {
  if (!isObj(o) || !Array.isArray(o[k]) || (o[k] as unknown[]).length < min) return undefined;
  return o[k] as unknown[];
}

export { isObj };

/**
 * Whether this list result answers a cursor the server itself handed out earlier (a later page of a
 * listing), and notes the page's own nextCursor. Call it on every page, mutated or not: a made-up or
 * stale cursor that the server answers as a first page starts a listing of its own.
 */
export function continuesListing(result: Obj, ctx: MutationContext): boolean {
  const handed = (ctx.state.handedCursors ??= new Set<string>()) as Set<string>;
  const method = ctx.request?.method;
  const cursor = ctx.request?.params.cursor;
  const continues = typeof cursor === 'string' && handed.has(`${method} ${cursor}`);
  if (typeof result.nextCursor === 'string') handed.add(`${method} ${result.nextCursor}`);
  return continues;
}
