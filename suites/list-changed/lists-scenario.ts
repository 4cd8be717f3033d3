import { ALL_VERSIONS } from '../../protocol/versions.js';
import { listAll } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export const LIST_METHODS: [capability: string, method: string, key: string][] = [
  ['tools', 'tools/list', 'tools'],
  ['prompts', 'prompts/list', 'prompts'],
  ['resources', 'resources/list', 'resources'],
  ['resources', 'resources/templates/list', 'resourceTemplates'],
];

export interface Listing {
  method: string;
  pages: Exchange[];
  loop?: { cursor: string; page: number };
  truncated: boolean;
  failed?: Exchange;
}

export interface ListsObs {
  listings: Listing[];
  invalidCursor?: { method: string; exchange: Exchange };
}

export const MAX_PAGES = 50;

/** Every declared list followed to its end (its pages feed the caching oracles too), and a made-up cursor. */
export const listsScenario = scenario<ListsObs>({
  id: 'lists',
  title: 'every declared list followed to its end; an invalid cursor',
  versions: ALL_VERSIONS,
  sharesSession: true,
  async run({ session }) {
    const obs: ListsObs = { listings: [] };
    await Promise.all(
      LIST_METHODS.filter(([cap]) => cap in session.capabilities).map(async ([, method, key]) => {
        const r = await listAll((cursor) => session.request(method, cursor === undefined ? {} : { cursor }), key, MAX_PAGES);
        obs.listings.push({ method, pages: r.pages, loop: r.loop, truncated: r.truncated, failed: r.failed });
        // The first page again: the order must not change while nothing did (caching.tools-order, PG-05).
        if (method === 'tools/list' && session.era === 'modern') await session.request(method, {});
        if (method === 'resources/list' && session.era === 'modern') {
          const first = r.items.find((x) => typeof x.uri === 'string');
          if (first) await session.request('resources/read', { uri: first.uri }); // a cacheable result for caching.fields
        }
      }),
    );
    obs.listings.sort((a, b) => LIST_METHODS.findIndex((m) => m[1] === a.method) - LIST_METHODS.findIndex((m) => m[1] === b.method));
    const firstList = obs.listings[0];
    if (firstList) obs.invalidCursor = { method: firstList.method, exchange: await session.request(firstList.method, { cursor: 'mcpspec-not-a-cursor-%%' }) };
    return obs;
  },
});
