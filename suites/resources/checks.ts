// resources.*: reading resources (R26, RS-01, RS-02).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY, MODERN } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { needsCapableClient } from '../input-required/plain-answer.js';
import { errorOf, evidence, expectErrorCode, isObj, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import { resourcesScenario, resourceTemplatesScenario, UNKNOWN_URI, type TemplateRead } from './scenario.js';

const RESOURCES = { capabilities: ['resources'] };

/**
 * The codes that say "no such resource": -32602 (2026-07-28, RS-01) and the legacy -32002 (RS-02;
 * whether the era's own code was used is judged by resources.unknown-* and jsonrpc.error-codes). In
 * 2026-07-28 -32602 is also "invalid params": a server that refuses a well-formed expansion of its own
 * template as invalid cannot be told apart from one that lacks the resource.
 */
const NOT_FOUND = new Set([-32602, -32002]);

/** How the read of an expanded template falls short, if it does. */
function templateReadProblem(r: TemplateRead): string | undefined {
  const err = errorOf(r.exchange);
  if (err) return typeof err.code === 'number' && NOT_FOUND.has(err.code) ? undefined : `got ${outcome(r.exchange)}, neither contents nor "not found"`;
  const result = resultOf(r.exchange);
  if (!result) return `got ${outcome(r.exchange)}`;
  const contents = result.contents;
  if (!Array.isArray(contents)) return 'got a result without a contents list';
  if (contents.length === 0) return 'got empty contents (for a resource that exists, or not: ambiguous, RS-01)';
  if (!contents.some((c) => isObj(c) && c.uri === r.uri)) return `got contents for ${contents.map((c) => (isObj(c) ? JSON.stringify(c.uri) : '?')).slice(0, 3).join(', ')}, none for the uri asked`;
  return undefined;
}

const byWhom = (r: TemplateRead) => (r.suggested.length ? `the value${r.suggested.length > 1 ? 's' : ''} its completion/complete suggested` : 'a plain value');

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
  check(resourceTemplatesScenario, {
    id: 'resources.template-read',
    // resources: "Resource templates allow servers to expose parameterized resources using URI templates"
    // (RFC 6570): an expansion names a resource the server exposes, or one it does not have, and "If the
    // requested resource does not exist, servers MUST return a JSON-RPC error with code -32602" (RS-01).
    // Contents for another uri, empty contents, an internal or any other error are no answer to it.
    title: 'a listed resource template expanded with a value (RFC 6570) reads back with contents for that uri, or is answered as not found; never an internal error, empty contents or contents for another uri',
    requirements: ['R26', 'RS-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: RESOURCES,
    spec: SPEC.resources26,
    judge({ listingFailed, unusable, reads }) {
      if (reads.length === 0) {
        if (listingFailed) return untestable(`resources/templates/list got ${outcome(listingFailed)}: no template to expand`);
        if (unusable.length) return untestable(`no listed template is an RFC 6570 template mcpspec can expand (${unusable.slice(0, 3).join(', ')})`);
        return untestable('the server lists no resource template');
      }
      const answered = reads.filter((r) => !unanswerable(r.exchange));
      if (answered.length === 0) return untestable('the run ended before the answers came');
      // A capability refusal or a request for input is judged by mrtr.*, where mcpspec plays the rounds.
      const judged = answered.filter((r) => !needsCapableClient(r.exchange));
      return every(judged, {
        none: `all ${answered.length} reads need client input or a client capability (judged by mrtr.*)`,
        offends: (r) => templateReadProblem(r) !== undefined,
        violated: (bad) => `${bad.length} of ${judged.length} expanded templates did not read back; first: ${bad[0].uriTemplate} as ${bad[0].uri} (${byWhom(bad[0])}) ${templateReadProblem(bad[0])}`,
        evidence: (r) => evidence(`resources/read ${r.uri} (${r.uriTemplate} with ${byWhom(r)})`, r.exchange, { expected: `contents with an item for ${r.uri}, or error -32602 (resource not found)` }),
        holds: (all) => {
          const notFound = all.filter((r) => errorOf(r.exchange));
          const read = all.length - notFound.length;
          return `${all.length} expanded template(s) read: ${read} with contents for the uri asked${notFound.length ? `, ${notFound.length} answered as not found (${notFound.map((r) => `${r.uri} with ${byWhom(r)}`).join('; ')})` : ''}`;
        },
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
