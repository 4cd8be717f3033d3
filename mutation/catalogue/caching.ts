// Mutations of cache hints (requirements digest §7, CA-01..CA-11, and IR-14; server side, modern era
// only): ttlMs and cacheScope on the complete results of the six cacheable methods, their types and
// values, one cacheScope for every page of a listing, and no hints on input_required results.

import { continuesListing, onResult } from '../edits.js';
import { mutation, SERVER_MODERN as modern, type Mutation, type MutationContext } from '../mutation.js';

type Obj = Record<string, unknown>;

/** Cacheable results other than server/discover (CA-01). */
const CACHEABLE = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];
const WITH_DISCOVER = ['server/discover', ...CACHEABLE];
const PAGINATED = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
const MRTR = ['tools/call', 'prompts/get', 'resources/read'];

function complete(r: Obj): boolean {
  return r.resultType === 'complete';
}

/** An edit of a complete result's ttlMs, when it is a number. */
function ttl(change: (ms: number) => unknown) {
  return (r: Obj): boolean => {
    if (!complete(r) || typeof r.ttlMs !== 'number') return false;
    r.ttlMs = change(r.ttlMs);
    return true;
  };
}

/** An edit of a complete result's cacheScope, when it is one of the two values. */
function scope(change: (s: string) => unknown) {
  return (r: Obj): boolean => {
    if (!complete(r) || (r.cacheScope !== 'public' && r.cacheScope !== 'private')) return false;
    r.cacheScope = change(r.cacheScope);
    return true;
  };
}

function dropKey(k: string) {
  return (r: Obj): boolean => {
    if (!complete(r) || !(k in r)) return false;
    delete r[k];
    return true;
  };
}

export const CACHING_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'caching.ttl-missing',
    requirements: ['CA-01'],
    description: 'complete results of tools/list, prompts/list, resources/list, resources/templates/list and resources/read lack ttlMs',
    ...onResult(CACHEABLE, dropKey('ttlMs')),
  }),
  mutation({
    ...modern,
    id: 'caching.scope-missing',
    requirements: ['CA-01'],
    related: ['CA-03'],
    description: 'complete results of the list methods and resources/read lack cacheScope',
    ...onResult(CACHEABLE, dropKey('cacheScope')),
  }),
  mutation({
    ...modern,
    id: 'caching.discover-no-hints',
    requirements: ['CA-01'],
    related: ['VN-06'],
    description: 'the server/discover result carries neither ttlMs nor cacheScope',
    ...onResult(['server/discover'], (r) => {
      if (!complete(r) || (!('ttlMs' in r) && !('cacheScope' in r))) return false;
      delete r.ttlMs;
      delete r.cacheScope;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'caching.ttl-negative',
    requirements: ['CA-02'],
    description: 'cacheable complete results (server/discover, the lists, resources/read) carry ttlMs -1',
    ...onResult(WITH_DISCOVER, ttl(() => -1)),
  }),
  mutation({
    ...modern,
    id: 'caching.ttl-fraction',
    requirements: ['CA-02'],
    description: 'cacheable complete results carry a fractional ttlMs (ttlMs + 0.5)',
    ...onResult(WITH_DISCOVER, ttl((ms) => ms + 0.5)),
  }),
  mutation({
    ...modern,
    id: 'caching.ttl-string',
    requirements: ['CA-02'],
    description: 'cacheable complete results carry ttlMs as a string ("60000")',
    ...onResult(WITH_DISCOVER, ttl((ms) => String(ms))),
  }),
  mutation({
    ...modern,
    id: 'caching.scope-unknown',
    requirements: ['CA-03'],
    description: 'cacheable complete results say cacheScope "shared" (neither "public" nor "private")',
    ...onResult(WITH_DISCOVER, scope(() => 'shared')),
  }),
  mutation({
    ...modern,
    id: 'caching.scope-capitalised',
    requirements: ['CA-03'],
    description: 'cacheable complete results say cacheScope "Public" / "Private" (the values are case-sensitive)',
    ...onResult(WITH_DISCOVER, scope((s) => s.charAt(0).toUpperCase() + s.slice(1))),
  }),
  mutation({
    ...modern,
    id: 'caching.scope-differs-between-pages',
    requirements: ['CA-11'],
    description: 'pages after the first of a listing (asked for with a cursor the server handed out) carry the other cacheScope than the first page',
    // Only a continuation is a later page: a made-up or stale cursor answered as page 1 starts a listing of its own.
    ...onResult(PAGINATED, (r, ctx) => continuesListing(r, ctx) && scope((s) => (s === 'public' ? 'private' : 'public'))(r)),
  }),
  mutation({
    ...modern,
    id: 'caching.hints-on-input-required',
    requirements: ['IR-14'],
    related: ['CA-06', 'CA-01'],
    description: 'input_required results of tools/call, prompts/get and resources/read carry ttlMs 60000 and cacheScope "private"',
    ...onResult(MRTR, (r) => {
      if (r.resultType !== 'input_required' || ('ttlMs' in r && 'cacheScope' in r)) return false;
      r.ttlMs = 60_000;
      r.cacheScope = 'private';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'caching.ttl-null',
    requirements: ['CA-02'],
    description: 'complete list results carry ttlMs null ("no expiry" spelt as null)',
    ...onResult(PAGINATED, ttl(() => null)),
  }),
];
