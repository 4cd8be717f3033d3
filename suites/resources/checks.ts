// resources.*: reading resources (R26, RS-01, RS-02).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY, MODERN } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { needsCapableClient } from '../input-required/plain-answer.js';
import { evidence, expectErrorCode, isObj, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import { resourcesScenario, UNKNOWN_URI } from './scenario.js';

const RESOURCES = { capabilities: ['resources'] };

export const resourcesChecks = [
  check(resourcesScenario, {
    id: 'resources.read',
    title: 'each listed resource reads back, with contents for the uri asked',
    requirements: ['R26'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: RESOURCES,
    spec: SPEC.resources26,
    judge({ reads }) {
      const answered = reads.filter((r) => !unanswerable(r.exchange));
      // A capability refusal or a request for input is judged by mrtr.*, where mcpspec plays the rounds.
      const judged = answered.filter((r) => !needsCapableClient(r.exchange));
      const left = answered.length - judged.length;
      return every(judged, {
        none: answered.length ? `all ${answered.length} reads need client input or a client capability (judged by mrtr.*)` : 'resources/list returned no resources',
        offends: (r) => {
          const contents = resultOf(r.exchange)?.contents;
          return !Array.isArray(contents) || !contents.some((c) => isObj(c) && c.uri === r.uri);
        },
        violated: (bad) => `${bad.length} of ${judged.length} reads did not return contents for the uri asked; first: ${bad[0].uri} -> ${outcome(bad[0].exchange)}`,
        evidence: (r) => evidence(`resources/read ${r.uri}`, r.exchange, { pointer: '/result/contents', expected: `an item with uri ${r.uri}` }),
        holds: () => `${judged.length} resources read back${left ? ` (${left} needing client input or a client capability left to mrtr.*)` : ''}`,
      });
    },
  }),
  check(resourcesScenario, {
    id: 'resources.unknown-modern',
    title: 'reading an unknown uri gets -32602, never empty contents',
    requirements: ['RS-01'],
    level: 'MUST',
    versions: MODERN,
    requires: RESOURCES,
    spec: SPEC.resources26,
    judge({ unknown }) {
      if (unanswerable(unknown)) return untestable('the run ended before the answer came');
      return expectErrorCode(unknown, -32602, `resources/read ${UNKNOWN_URI}`);
    },
  }),
  check(resourcesScenario, {
    id: 'resources.unknown-data-uri',
    // SEP-2164 (behind RS-01): "The `data` field SHOULD include the `uri` that was not found."
    title: 'the error for an unknown uri names it in data.uri',
    requirements: ['RS-01'],
    level: 'SHOULD',
    versions: MODERN,
    requires: RESOURCES,
    spec: SPEC.resources26,
    judge({ unknown }) {
      if (unanswerable(unknown)) return untestable('the run ended before the answer came');
      const error = isObj(unknown.response) ? unknown.response.error : undefined;
      if (!isObj(error)) return untestable(`resources/read ${UNKNOWN_URI} got no error to read (resources.unknown-modern judges that): ${outcome(unknown)}`);
      const uri = isObj(error.data) ? error.data.uri : undefined;
      const ev = [evidence(`resources/read ${UNKNOWN_URI}`, unknown, { pointer: '/error/data/uri', expected: UNKNOWN_URI })];
      if (uri === UNKNOWN_URI) return holds(`error ${String(error.code)} names the uri in data.uri`, ev);
      return violated(`the error for the unknown ${UNKNOWN_URI} has data.uri ${JSON.stringify(uri) ?? 'absent'}: SEP-2164 asks for the uri that was not found`, ev);
    },
  }),
  check(resourcesScenario, {
    id: 'resources.unknown-legacy',
    title: 'reading an unknown uri gets -32002 (resource not found)',
    requirements: ['RS-02'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: RESOURCES,
    spec: SPEC.resources25,
    judge({ unknown }) {
      if (unanswerable(unknown)) return untestable('the run ended before the answer came');
      return expectErrorCode(unknown, -32002, `resources/read ${UNKNOWN_URI}`);
    },
  }),
];
