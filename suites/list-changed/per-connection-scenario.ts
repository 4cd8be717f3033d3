import { MODERN } from '../../protocol/versions.js';
import { listAll } from '../kit/exchange.js';
import type { Exchange, RawConnection, Session } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { LIST_METHODS, MAX_PAGES } from './lists-scenario.js';

/** One reading of a list on one connection: its item keys in order, or the exchange that failed. */
export interface Reading {
  keys?: string[];
  failed?: Exchange;
  pages: Exchange[];
}

export interface ListComparison {
  method: string;
  /** Readings on the scenario's connection and on a second, fresh one, taken side by side: round 1, then round 2 a moment later. */
  rounds: { here: Reading; there: Reading }[];
}

export interface PerConnectionObs {
  comparisons: ListComparison[];
  /** Why nothing could be compared. */
  none?: string;
}

/** What identifies an item of each list. */
const ITEM_KEY: Record<string, string> = { tools: 'name', prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' };

/** A second look after this long: a set that changed over time (allowed) has settled by then. */
export const SETTLE_MS = 1000;

async function read(request: (method: string, cursor?: string) => Promise<Exchange>, method: string, key: string): Promise<Reading> {
  const r = await listAll((cursor) => request(method, cursor), key, MAX_PAGES);
  if (r.failed || r.loop || r.truncated) return { failed: r.failed ?? r.pages.at(-1), pages: r.pages };
  return { keys: r.items.map((i) => String(i[ITEM_KEY[key]])), pages: r.pages };
}

function rawRequester(raw: RawConnection, session: Session): (method: string, cursor?: string) => Promise<Exchange> {
  let n = 0;
  return (method, cursor) => {
    const id = `mcpspec-conn2-${++n}`;
    const params: Record<string, unknown> = { _meta: session.defaultMeta() };
    if (cursor !== undefined) params.cursor = cursor;
    return raw.send({ jsonrpc: '2.0', id, method, params }, { expectId: id });
  };
}

/**
 * 2026-07-28 lists must not vary per connection (VN-10). Over stdio a connection is a process: the
 * scenario's server and a second one started beside it list side by side, twice.
 */
export const perConnectionScenario = scenario<PerConnectionObs>({
  id: 'lists.per-connection',
  title: 'the declared lists read on two connections (stdio: two processes) side by side, twice',
  versions: MODERN,
  transports: ['stdio'],
  async run({ session, openRaw }) {
    const lists = LIST_METHODS.filter(([cap]) => cap in session.capabilities);
    if (lists.length === 0) return { comparisons: [], none: 'the server declares no tools, prompts or resources' };
    const raw = await openRaw();
    const here = (method: string, cursor?: string) => session.request(method, cursor === undefined ? {} : { cursor });
    const there = rawRequester(raw, session);
    const comparisons: ListComparison[] = lists.map(([, method]) => ({ method, rounds: [] }));
    for (let round = 0; round < 2; round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, SETTLE_MS));
      await Promise.all(
        lists.map(async ([, method, key], i) => {
          const [a, b] = await Promise.all([read(here, method, key), read(there, method, key)]);
          comparisons[i].rounds.push({ here: a, there: b });
        }),
      );
      // Equal in the first round: nothing more to look at.
      if (round === 0 && comparisons.every((c) => same(c.rounds[0].here, c.rounds[0].there))) break;
    }
    return { comparisons };
  },
});

/** Two readings list the same set (order is caching.tools-order's business). */
export function same(a: Reading, b: Reading): boolean {
  if (!a.keys || !b.keys) return false;
  const sa = [...new Set(a.keys)].sort();
  const sb = [...new Set(b.keys)].sort();
  return sa.length === sb.length && sa.every((k, i) => k === sb[i]);
}
