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
    return every(o.lists.slice(1), {
      none: `the client listed tools once${o.subscribed ? ' (and was told the list changed)' : ''}: nothing shows whether it caches (which cached answer it reuses for which request, CA-05, no server can see)`,
      offends: (l) => o.invalidatedAt === undefined || l.at < o.invalidatedAt,
      violated: (stale) => `the client fetched tools/list ${stale.length} more time(s) while the first answer was fresh (ttlMs ${LONG_TTL_MS}) and nothing had invalidated it`,
      evidence: (l) => ({ what: 'tools/list refetched inside its TTL', seq: [o.lists[0].seq, l.seq], expected: `the cached list (fresh for ${LONG_TTL_MS} ms)` }),
      holds: (again) => `the client fetched tools/list again only after notifications/tools/list_changed invalidated it (${again.length} time(s))`,
    });
  },
});

export const cachingClientChecks = [cacheFresh];
