// pagination.*: cursors (PG26, PG-01..PG-04).

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import { check, holds, untestable, violated } from './check.js';
import { evidence, expectErrorCode } from './exchange.js';
import { listsScenario, MAX_PAGES } from './scenarios/lists.js';

const LISTABLE = ['tools', 'prompts', 'resources'];

export const paginationChecks = [
  check(listsScenario, {
    id: 'pagination.terminates',
    title: 'following nextCursor ends; no cursor comes back',
    requirements: ['PG-01', 'PG-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: { anyCapability: LISTABLE },
    spec: SPEC.pagination26,
    judge({ listings }) {
      const loops = listings.filter((l) => l.loop || l.truncated);
      if (loops.length) {
        return violated(
          loops.map((l) => (l.loop ? `${l.method}: cursor ${JSON.stringify(l.loop.cursor)} came back on page ${l.loop.page + 1}` : `${l.method}: still going after ${MAX_PAGES} pages`)).join('; '),
          loops.map((l) => evidence(`${l.method} last page`, l.pages[l.pages.length - 1], { pointer: '/result/nextCursor' })),
        );
      }
      const paged = listings.filter((l) => l.pages.length > 1);
      if (paged.length === 0) return untestable(`no list paginates (${listings.map((l) => l.method).join(', ')} fit on one page): no cursor to follow`);
      return holds(paged.map((l) => `${l.method}: ${l.pages.length} pages`).join(', '));
    },
  }),
  check(listsScenario, {
    id: 'pagination.invalid-cursor',
    title: 'an invalid cursor gets -32602',
    requirements: ['PG-04'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: { anyCapability: LISTABLE },
    spec: SPEC.pagination26,
    judge({ invalidCursor }) {
      if (!invalidCursor) return untestable('no list could be requested');
      return expectErrorCode(invalidCursor.exchange, -32602, `${invalidCursor.method} with a made-up cursor`, `${invalidCursor.method} with a made-up cursor got -32602`);
    },
  }),
];
