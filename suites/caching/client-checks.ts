// client.cache-fresh: a client under test does not refetch a list still fresh by its ttlMs unless
// list_changed invalidated it (CA-04, CA-10). Judged on the caching scenario of client-scenarios.ts beside it.

import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { check, untestable } from '../kit/check.js';
import { every } from '../kit/judge.js';
import { cachingServer, LONG_TTL_MS } from './client-scenarios.js';

const cacheFresh = check(cachingServer, {
  id: 'client.cache-fresh',
  title: 'a list still fresh by its ttlMs is not fetched again unless a list_changed notification invalidated it',
  requirements: ['CA-04', 'CA-10'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.caching26,
  judge(o) {
    if (o.lists.length === 0) return untestable('the client did not list tools');
    // Judged by order, not time: list_changed goes out a fixed time after the first answer, and
    // explains exactly one refetch, the first after it; any other was of a list still fresh.
    const n = o.listedBeforeChange;
    const refetches = o.lists.slice(1).map((l, i) => ({ ...l, index: i + 1 }));
    const told = n === undefined ? '' : ` (list_changed went out after ${n} tools/list)`;
    return every(refetches, {
      none: `the client listed tools once${o.subscribed ? ' (and was told the list changed)' : ''}: nothing shows whether it caches (which cached answer it reuses for which request, CA-05, no server can see)`,
      offends: (l) => l.index !== n,
      violated: (stale) => `the client fetched tools/list ${stale.length} more time(s) while the list it had was fresh (ttlMs ${LONG_TTL_MS}) and no list_changed had invalidated it since${told}`,
      evidence: (l) => ({ what: n === undefined || l.index < n ? 'tools/list refetched inside its TTL, before any list_changed' : 'tools/list refetched again after the refetch list_changed called for', seq: [o.lists[l.index - 1].seq, l.seq], expected: `the cached list (fresh for ${LONG_TTL_MS} ms)` }),
      holds: () => 'the client fetched tools/list again once, right after notifications/tools/list_changed invalidated it',
    });
  },
});

export const cachingClientChecks = [cacheFresh];
