// Mutations of cursor pagination (requirements digest §8, PG-01..PG-05, server side; both eras, the
// order rule PG-05 modern only): the type of nextCursor, what the server does with an invalid
// cursor, cursors that stop being valid or never advance, and list order. Mutations that hand the
// client a cursor the server never issued map it back on the way in, so only the rule they name breaks.

import { isRequest } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { continuesListing, isObj, list, nth, onError, onResult } from '../edits.js';
import { mutation, SERVER_ANY as server, SERVER_MODERN as modern, type Mutation, type MutationContext, type SeenRequest } from '../mutation.js';
import { metaOfRequest, withStatus } from './versioning.js';

type Obj = Record<string, unknown>;

/** Paginated methods and the array each result pages through. */
const ITEMS: Record<string, string> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'tasks/list': 'tasks',
};
const PAGINATED = Object.keys(ITEMS);

function cursorOf(req: SeenRequest | undefined): string | undefined {
  const c = req?.params.cursor;
  return typeof c === 'string' ? c : undefined;
}

/** A -32602 for a request that is well-formed but for its cursor (a modern one names both required keys). */
function refusedCursor(e: Obj, ctx: MutationContext): boolean {
  if (e.code !== -32602 || cursorOf(ctx.request) === undefined) return false;
  if (ctx.era !== 'modern') return true;
  const meta = metaOfRequest(ctx.request);
  return META_PROTOCOL_VERSION in meta && META_CLIENT_CAPABILITIES in meta;
}

/** The cacheScope a listing's pages use (learned from the pages going by). */
function scopes(ctx: MutationContext): Record<string, unknown> {
  if (!isObj(ctx.state.scopes)) ctx.state.scopes = {};
  return ctx.state.scopes as Record<string, unknown>;
}

function learnScope(r: Obj, ctx: MutationContext): void {
  const method = ctx.request?.method;
  if (method && (r.cacheScope === 'public' || r.cacheScope === 'private')) scopes(ctx)[method] = r.cacheScope;
}

function lastPage(r: Obj): boolean {
  return !('nextCursor' in r);
}

function cursorBook(ctx: MutationContext, name: string): Map<string, string> {
  if (!(ctx.state[name] instanceof Map)) ctx.state[name] = new Map<string, string>();
  return ctx.state[name] as Map<string, string>;
}

/** Turns the refusal of a cursor into an empty last page (of the cacheScope the listing's pages use). */
const emptyPageForRefusedCursor = onError(PAGINATED, (e, ctx, m) => {
  if (!refusedCursor(e, ctx)) return false;
  const method = ctx.request!.method;
  delete m.error;
  m.result = ctx.era === 'modern' ? { [ITEMS[method]]: [], resultType: 'complete', ttlMs: 0, cacheScope: scopes(ctx)[method] ?? 'private' } : { [ITEMS[method]]: [] };
  return true;
});

export const PAGINATION_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'pagination.next-cursor-number',
    requirements: ['PG-01'],
    description: 'nextCursor is a number (1, 2, ...) instead of a string; the proxy maps it back to the server\'s cursor when the client sends it',
    ...onResult(PAGINATED, (r, ctx) => {
      if (typeof r.nextCursor !== 'string') return false;
      const n = nth(ctx, 'cursors') + 1;
      cursorBook(ctx, 'numbered').set(String(n), r.nextCursor);
      r.nextCursor = n;
      return true;
    }),
    toServer(m, ctx) {
      if (!isRequest(m) || !PAGINATED.includes(m.method) || !isObj(m.params)) return undefined;
      const c = m.params.cursor;
      const original = typeof c === 'number' || typeof c === 'string' ? cursorBook(ctx, 'numbered').get(String(c)) : undefined;
      if (original === undefined) return undefined;
      m.params.cursor = original;
      return [m];
    },
  }),
  mutation({
    ...server,
    id: 'pagination.next-cursor-null',
    requirements: ['PG-01'],
    related: ['PG-03'],
    description: 'the last page of a listing says "nextCursor": null instead of leaving nextCursor out',
    ...onResult(PAGINATED, (r) => {
      if (!lastPage(r)) return false;
      r.nextCursor = null;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'pagination.invalid-cursor-served',
    requirements: ['PG-04'],
    description: 'a list request with a cursor the server refuses (-32602) gets an empty last page instead',
    ...withStatus(200, {
      toClient(m, ctx) {
        if (isObj(m.result) && PAGINATED.includes(ctx.request?.method ?? '')) learnScope(m.result, ctx);
        return emptyPageForRefusedCursor.toClient!(m, ctx);
      },
    }),
  }),
  mutation({
    ...server,
    id: 'pagination.invalid-cursor-internal-error',
    requirements: ['PG-04'],
    description: 'a list request with a cursor the server refuses gets -32603 (internal error: the cursor failed to decode) instead of -32602',
    ...onError(PAGINATED, (e, ctx) => {
      if (!refusedCursor(e, ctx)) return false;
      e.code = -32603;
      e.message = 'Internal error';
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'pagination.cursor-never-advances',
    requirements: ['PG-04'],
    related: ['PG-01'],
    description: 'the last page of a listing, fetched with a cursor the server handed out, hands back that same cursor as its nextCursor (following the cursors never ends)',
    // A made-up cursor answered as a first page is no listing's last page.
    ...onResult(PAGINATED, (r, ctx) => {
      const c = cursorOf(ctx.request);
      if (!continuesListing(r, ctx) || c === undefined || !lastPage(r)) return false;
      r.nextCursor = c;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'pagination.cursor-single-use',
    requirements: ['PG-04'],
    description: 'a cursor works once: the second request with the same cursor (same list) is refused with -32602',
    ...onResult(PAGINATED, (_r, ctx, m) => {
      const c = cursorOf(ctx.request);
      if (c === undefined) return false;
      const used = cursorBook(ctx, 'used');
      const key = `${ctx.request!.method} ${c}`;
      if (!used.has(key)) {
        used.set(key, c);
        return false;
      }
      delete m.result;
      m.error = { code: -32602, message: 'Invalid cursor: already used' };
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'pagination.empty-cursor-means-end',
    requirements: ['PG-04'],
    related: ['PG-03'],
    description: 'last pages say "nextCursor": "" (meaning "the end" to the server), and a request with that empty cursor is refused with -32602 in the server\'s place',
    ...onResult(PAGINATED, (r, ctx) => {
      if (!lastPage(r)) return false;
      r.nextCursor = '';
      cursorBook(ctx, 'empty').set(ctx.request!.method, '');
      return true;
    }),
    toServer(m, ctx) {
      if (!isRequest(m) || !isObj(m.params) || m.params.cursor !== '' || !cursorBook(ctx, 'empty').has(m.method)) return undefined;
      ctx.reply({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'Invalid cursor' } });
      return [];
    },
  }),
  mutation({
    ...modern,
    id: 'pagination.unstable-order',
    requirements: ['PG-05'],
    description: 'every second tools/list page with two or more tools lists them in reverse order (the tool set is unchanged)',
    ...onResult(['tools/list'], (r, ctx) => {
      const tools = list(r, 'tools', 2);
      if (!tools || nth(ctx, 'tools-list') % 2 === 0) return false;
      tools.reverse();
      return true;
    }),
  }),
];
