// pagination.*: cursors (PG26, PG-01..PG-04).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { evidence, expectErrorCode, isObj, outcome, resultOf } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { listsScenario, MAX_PAGES } from '../list-changed/lists-scenario.js';

const LISTABLE = ['tools', 'prompts', 'resources'];
/** The paginated methods (PG-01), tasks/list of the 2025-11-25 tasks utility included. */
const PAGINATED = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'tasks/list']);

function cursorOf(ex: Exchange | undefined): unknown {
  const req = ex?.request;
  return isObj(req) && isObj(req.params) ? req.params.cursor : undefined;
}

export const paginationChecks = [
  check(listsScenario, {
    id: 'pagination.terminates',
    title: 'following nextCursor ends; no cursor comes back, and none the server gave is refused (an empty one included)',
    requirements: ['PG-01', 'PG-03', 'PG-04'],
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
      // A page after the first was asked with a cursor the server itself handed out: refusing it breaks the listing.
      const refused = listings.filter((l) => l.failed && l.pages.length > 1);
      if (refused.length) {
        return violated(
          refused.map((l) => `${l.method}: the server's own cursor ${JSON.stringify(cursorOf(l.failed))} got ${outcome(l.failed)} on page ${l.pages.length}`).join('; '),
          refused.map((l) => evidence(`${l.method} with the cursor the previous page gave`, l.failed, { expected: 'the next page' })),
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
  oracle({
    id: 'pagination.cursor-type',
    title: 'every nextCursor a paginated result carries is a string',
    requirements: ['PG-01', 'PG-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.pagination26,
    judge({ exchanges }) {
      return every(exchanges.filter((ex) => ex.method !== undefined && PAGINATED.has(ex.method) && resultOf(ex) !== undefined), {
        none: 'no paginated list was answered',
        offends: (ex) => 'nextCursor' in resultOf(ex)! && typeof resultOf(ex)!.nextCursor !== 'string',
        violated: (bad, pages) => `${bad.length} of ${pages.length} list pages carry a nextCursor that is no string; first: ${bad[0].method} nextCursor ${JSON.stringify(resultOf(bad[0])!.nextCursor)}`,
        evidence: (ex) => evidence(`${ex.method} nextCursor`, ex, { pointer: '/result/nextCursor', expected: 'a string, or no nextCursor at the end' }),
        holds: (pages) => `${pages.length} list pages, each nextCursor (where there is one) a string`,
      });
    },
  }),
];
