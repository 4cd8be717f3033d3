// caching.*: ttlMs and cacheScope on cacheable results (CA26, CA-01..CA-03, CA-11), judged over
// every result of the run.

import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { evidence, isObj, resultOf } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { sentRequest } from '../kit/request-shape.js';

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
      return every(cacheableResults(exchanges, deliberate), {
        none: 'no cacheable result was received',
        offends: (ex) => {
          const r = resultOf(ex)!;
          const ttlOk = Number.isInteger(r.ttlMs) && (r.ttlMs as number) >= 0;
          const scopeOk = r.cacheScope === 'public' || r.cacheScope === 'private';
          return !ttlOk || !scopeOk;
        },
        violated: (bad, results) => `${bad.length} of ${results.length} cacheable results lack valid ttlMs/cacheScope; first: ${bad[0].method} result`,
        evidence: (ex) => evidence(`${ex.method} result`, ex, { expected: { ttlMs: 'integer >= 0', cacheScope: 'public | private' }, actual: { ttlMs: resultOf(ex)!.ttlMs, cacheScope: resultOf(ex)!.cacheScope } }),
        holds: (results) => `${results.length} cacheable results (${[...new Set(results.map((ex) => ex.method))].join(', ')}) carry ttlMs and cacheScope`,
      });
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
      return every(pairs, {
        none: 'no list paginates, so there is no second page to compare',
        offends: ([a, b]) => resultOf(a)!.cacheScope !== resultOf(b)!.cacheScope,
        violated: (bad) => bad.map(([a, b]) => `${a.method}: ${String(resultOf(a)!.cacheScope)} then ${String(resultOf(b)!.cacheScope)}`).join('; '),
        evidence: ([a, b]) => ({ what: `${a.method} consecutive pages`, actual: [resultOf(a)!.cacheScope, resultOf(b)!.cacheScope], seq: [...a.seq, ...b.seq].slice(0, 8) }),
        holds: () => `${pairs.length} consecutive page pairs share their cacheScope`,
      });
    },
  }),
  oracle({
    id: 'caching.tools-order',
    title: 'tools/list gives its tools in the same order every time while the set is unchanged',
    requirements: ['PG-05'],
    level: 'SHOULD',
    versions: MODERN,
    requires: { capabilities: ['tools'] },
    spec: SPEC.pagination26,
    judge({ exchanges, events, deliberate }) {
      // Answers are compared only between tool list changes the server announced (an epoch: the
      // number of notifications/tools/list_changed received before the answer).
      const changes = events.filter((e) => e.dir === 'in' && isObj(e.message) && e.message.method === 'notifications/tools/list_changed').map((e) => e.seq);
      const epoch = (ex: Exchange) => changes.filter((seq) => seq < Math.max(...ex.seq)).length;
      // First pages only: every listing starts there, whatever the page size.
      const firsts = cacheableResults(exchanges, deliberate).filter((ex) => ex.method === 'tools/list' && sentRequest(ex)?.params?.cursor === undefined && Array.isArray(resultOf(ex)!.tools));
      if (firsts.length < 2) return untestable('tools/list was answered fewer than two times');
      const names = (ex: Exchange) => (resultOf(ex)!.tools as unknown[]).map((t) => (isObj(t) ? String(t.name) : '?'));
      const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
      const byEpoch = new Map<number, Exchange[]>();
      for (const ex of firsts) byEpoch.set(epoch(ex), [...(byEpoch.get(epoch(ex)) ?? []), ex]);
      // The epoch with the most answers (ties: the earliest).
      const group = [...byEpoch.values()].sort((a, b) => b.length - a.length)[0];
      const first = names(group[0]);
      const comparable = group.filter((ex) => sameSet(names(ex), first));
      if (comparable.length < 2) return untestable(changes.length ? 'no two tools/list answers between announced tool list changes listed the same tools' : 'no two tools/list answers listed the same tools');
      const bad = comparable.filter((ex) => names(ex).join('\n') !== first.join('\n'));
      if (bad.length) return violated(`${bad.length} of ${comparable.length} tools/list answers list the same tools in another order`, [{ what: 'tools/list first pages', expected: first, actual: names(bad[0]), seq: [...group[0].seq.slice(0, 2), ...bad[0].seq.slice(0, 2)] }]);
      return holds(`${comparable.length} tools/list answers list ${first.length} tools in one order`);
    },
  }),
];
