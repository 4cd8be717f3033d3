// caching.*: ttlMs and cacheScope on cacheable results (CA26, CA-01..CA-03, CA-11), judged over
// every result of the run.

import { SPEC } from '../protocol/spec-links.js';
import { MODERN } from '../protocol/versions.js';
import type { Evidence } from '../results/verdict.js';
import { holds, oracle, untestable, violated } from './check.js';
import { evidence, resultOf } from './exchange.js';
import type { Exchange } from './ports.js';
import { sentRequest } from './request-shape.js';

export const CACHEABLE_METHODS = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);
const PAGINATED = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/** Complete results of cacheable methods that mcpspec asked for in earnest (not deliberately broken requests). */
function cacheableResults(exchanges: Exchange[], deliberate: (ex: Exchange) => boolean): Exchange[] {
  return exchanges.filter((ex) => {
    const req = sentRequest(ex);
    const r = resultOf(ex);
    return !!req && CACHEABLE_METHODS.has(req.method) && !!r && r.resultType !== 'input_required' && !deliberate(ex);
  });
}

export const cachingChecks = [
  oracle({
    id: 'caching.fields',
    title: 'every cacheable complete result carries ttlMs (integer >= 0) and cacheScope (public or private)',
    requirements: ['CA-01', 'CA-02', 'CA-03'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.caching26,
    judge({ exchanges, deliberate }) {
      const results = cacheableResults(exchanges, deliberate);
      if (results.length === 0) return untestable('no cacheable result was received');
      const bad: Evidence[] = [];
      for (const ex of results) {
        const r = resultOf(ex)!;
        const ttlOk = Number.isInteger(r.ttlMs) && (r.ttlMs as number) >= 0;
        const scopeOk = r.cacheScope === 'public' || r.cacheScope === 'private';
        if (!ttlOk || !scopeOk) bad.push(evidence(`${ex.method} result`, ex, { expected: { ttlMs: 'integer >= 0', cacheScope: 'public | private' }, actual: { ttlMs: r.ttlMs, cacheScope: r.cacheScope } }));
      }
      if (bad.length) return violated(`${bad.length} of ${results.length} cacheable results lack valid ttlMs/cacheScope; first: ${bad[0].what}`, bad.slice(0, 3));
      const methods = [...new Set(results.map((ex) => ex.method))].join(', ');
      return holds(`${results.length} cacheable results (${methods}) carry ttlMs and cacheScope`);
    },
  }),
  oracle({
    id: 'caching.scope-constant',
    title: 'all pages of one listing use the same cacheScope',
    requirements: ['CA-11'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.caching26,
    judge({ exchanges, deliberate }) {
      const pages = cacheableResults(exchanges, deliberate).filter((ex) => PAGINATED.has(ex.method ?? ''));
      // A page asked for with cursor C continues the listing whose page handed out nextCursor C.
      const byNext = new Map<string, Exchange>();
      for (const ex of pages) {
        const next = resultOf(ex)!.nextCursor;
        if (typeof next === 'string') byNext.set(`${ex.method} ${next}`, ex);
      }
      const pairs: [Exchange, Exchange][] = [];
      for (const ex of pages) {
        const cursor = sentRequest(ex)?.params?.cursor;
        const prev = typeof cursor === 'string' ? byNext.get(`${ex.method} ${cursor}`) : undefined;
        if (prev) pairs.push([prev, ex]);
      }
      if (pairs.length === 0) return untestable('no list paginates, so there is no second page to compare');
      const bad = pairs.filter(([a, b]) => resultOf(a)!.cacheScope !== resultOf(b)!.cacheScope);
      if (bad.length) {
        return violated(
          bad.map(([a, b]) => `${a.method}: ${String(resultOf(a)!.cacheScope)} then ${String(resultOf(b)!.cacheScope)}`).join('; '),
          bad.slice(0, 3).map(([a, b]) => ({ what: `${a.method} consecutive pages`, actual: [resultOf(a)!.cacheScope, resultOf(b)!.cacheScope], seq: [...a.seq, ...b.seq].slice(0, 8) })),
        );
      }
      return holds(`${pairs.length} consecutive page pairs share their cacheScope`);
    },
  }),
];

