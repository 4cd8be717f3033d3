import { ALL_VERSIONS, check, holds, MODERN, skip, untestable, violated, type Evidence } from './check.js';
import { evidence, expectErrorCode, listAll, resultOf } from './exchange.js';
import { scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

const LIST_METHODS: [string, string, string][] = [
  ['tools', 'tools/list', 'tools'],
  ['prompts', 'prompts/list', 'prompts'],
  ['resources', 'resources/list', 'resources'],
  ['resources', 'resources/templates/list', 'resourceTemplates'],
];

interface Listing {
  method: string;
  pages: Exchange[];
  loop?: { cursor: string; page: number };
  truncated: boolean;
  failed?: Exchange;
}

interface ListsObs {
  listings: Listing[];
  invalidCursor?: { method: string; exchange: Exchange };
  discover?: Exchange;
  read?: Exchange;
}

const MAX_PAGES = 50;

export const listsScenario = scenario<ListsObs>({
  id: 'lists',
  title: 'every declared list followed to its end; an invalid cursor; caching fields on cacheable results',
  versions: ALL_VERSIONS,
  async run({ session }) {
    const obs: ListsObs = { listings: [] };
    for (const [cap, method, key] of LIST_METHODS) {
      if (!(cap in session.capabilities)) continue;
      const r = await listAll((cursor) => session.request(method, cursor === undefined ? {} : { cursor }), key, MAX_PAGES);
      obs.listings.push({ method, pages: r.pages, loop: r.loop, truncated: r.truncated, failed: r.failed });
      if (method === 'resources/list' && session.era === 'modern') {
        const first = r.items.find((x) => typeof x.uri === 'string');
        if (first) obs.read = await session.request('resources/read', { uri: first.uri });
      }
    }
    const firstList = obs.listings[0];
    if (firstList) obs.invalidCursor = { method: firstList.method, exchange: await session.request(firstList.method, { cursor: 'mcpspec-not-a-cursor-%%' }) };
    if (session.era === 'modern') obs.discover = session.handshake;
    return obs;
  },
  checks: [
    check<ListsObs>({
      id: 'pagination.terminates',
      title: 'following nextCursor ends; no cursor comes back',
      requirements: ['PG-01', 'PG-03'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.pagination26,
      judge({ listings }) {
        if (listings.length === 0) return skip('the server declares no listable capability');
        const loops = listings.filter((l) => l.loop || l.truncated);
        if (loops.length) {
          return violated(loops.map((l) => (l.loop ? `${l.method}: cursor ${JSON.stringify(l.loop.cursor)} came back on page ${l.loop.page + 1}` : `${l.method}: still going after ${MAX_PAGES} pages`)).join('; '),
            loops.map((l) => evidence(`${l.method} last page`, l.pages[l.pages.length - 1], { pointer: '/result/nextCursor' })));
        }
        const paged = listings.filter((l) => l.pages.length > 1);
        if (paged.length === 0) return untestable(`no list paginates (${listings.map((l) => l.method).join(', ')} fit on one page): no cursor to follow`);
        return holds(paged.map((l) => `${l.method}: ${l.pages.length} pages`).join(', '));
      },
    }),
    check<ListsObs>({
      id: 'pagination.invalid-cursor',
      title: 'an invalid cursor gets -32602',
      requirements: ['PG-04'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.pagination26,
      judge({ invalidCursor }) {
        if (!invalidCursor) return skip('the server declares no listable capability');
        return expectErrorCode(invalidCursor.exchange, -32602, `${invalidCursor.method} with a made-up cursor`, `${invalidCursor.method} with a made-up cursor got -32602`);
      },
    }),
    check<ListsObs>({
      id: 'caching.fields',
      title: 'cacheable complete results carry ttlMs (integer >= 0) and cacheScope (public or private)',
      requirements: ['CA-01', 'CA-02', 'CA-03'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.caching26,
      judge({ listings, discover, read }) {
        const results = [discover, read, ...listings.flatMap((l) => l.pages)].filter((e): e is Exchange => !!e && !!resultOf(e) && resultOf(e)!.resultType !== 'input_required');
        if (results.length === 0) return untestable('no cacheable result was received');
        const bad: Evidence[] = [];
        for (const ex of results) {
          const r = resultOf(ex)!;
          const ttlOk = Number.isInteger(r.ttlMs) && (r.ttlMs as number) >= 0;
          const scopeOk = r.cacheScope === 'public' || r.cacheScope === 'private';
          if (!ttlOk || !scopeOk) bad.push(evidence(`${ex.method} result`, ex, { expected: { ttlMs: 'integer >= 0', cacheScope: 'public | private' }, actual: { ttlMs: r.ttlMs, cacheScope: r.cacheScope } }));
        }
        if (bad.length) return violated(`${bad.length} of ${results.length} cacheable results lack valid ttlMs/cacheScope; first: ${bad[0].what}`, bad.slice(0, 3));
        return holds(`${results.length} cacheable results carry ttlMs and cacheScope`);
      },
    }),
    check<ListsObs>({
      id: 'caching.scope-constant',
      title: 'all pages of one listing use the same cacheScope',
      requirements: ['CA-11'],
      level: 'MUST',
      versions: MODERN,
      spec: SPEC.caching26,
      judge({ listings }) {
        const paged = listings.filter((l) => l.pages.length > 1);
        if (paged.length === 0) return untestable('no list paginates, so there is no second page to compare');
        const bad = paged.filter((l) => new Set(l.pages.map((p) => resultOf(p)?.cacheScope)).size > 1);
        if (bad.length) {
          return violated(bad.map((l) => `${l.method}: ${l.pages.map((p) => String(resultOf(p)?.cacheScope)).join(' / ')}`).join('; '), bad.map((l) => ({ what: `${l.method} pages`, actual: l.pages.map((p) => resultOf(p)?.cacheScope) })));
        }
        return holds(paged.map((l) => `${l.method}: ${l.pages.length} pages, one scope`).join(', '));
      },
    }),
  ],
});

