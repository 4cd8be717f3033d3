// completion.*: completion/complete (server/utilities/completion, CP-01).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { check, untestable } from '../kit/check.js';
import { evidence, expectErrorCode, isObj, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { completionScenario, UNKNOWN_PROMPT } from '../prompts/scenario.js';

/** The most values one CompleteResult may carry (completion: "Maximum 100 items per response"). */
const MAX_VALUES = 100;

/** How an answer to a well-formed completion/complete falls short of a CompleteResult, if it does. */
function completionProblem(ex: Exchange): string | undefined {
  const result = resultOf(ex);
  if (!result) return `got ${outcome(ex)}`;
  const completion = result.completion;
  if (!isObj(completion)) return 'got a result without a completion object';
  const { values, total, hasMore } = completion;
  if (!Array.isArray(values)) return 'completion.values is not an array';
  if (values.some((v) => typeof v !== 'string')) return 'completion.values holds something other than strings';
  if (values.length > MAX_VALUES) return `completion.values holds ${values.length} items (at most ${MAX_VALUES})`;
  if (total !== undefined && !(Number.isInteger(total) && (total as number) >= 0)) return `completion.total is ${JSON.stringify(total)}, not a count`;
  if (hasMore !== undefined && typeof hasMore !== 'boolean') return `completion.hasMore is ${JSON.stringify(hasMore)}, not a boolean`;
  return undefined;
}

export const completionChecks = [
  check(completionScenario, {
    id: 'completion.unknown-ref',
    title: 'completion/complete for an unknown prompt gets -32602',
    requirements: ['CP-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: { capabilities: ['completions'] },
    spec: SPEC.completion26,
    judge({ unknownRef }) {
      if (unanswerable(unknownRef)) return untestable('the run ended before the answer came');
      return expectErrorCode(unknownRef, -32602, `completion/complete for ${UNKNOWN_PROMPT}`);
    },
  }),
  check(completionScenario, {
    id: 'completion.complete',
    // completion: the result is "an array of completion values ranked by relevance", "Maximum 100 items
    // per response", with an optional total and a hasMore flag; errors are for "common failure cases"
    // (SHOULD, CP-01: unknown prompt, missing arguments, internal errors), which a request about an
    // argument the server itself lists is not. An empty list of values is a valid answer.
    title: 'completion/complete for an argument of a listed prompt or a variable of a listed resource template gets a CompleteResult (values: at most 100 strings), not an error',
    requirements: ['CP-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: { capabilities: ['completions'] },
    spec: SPEC.completion26,
    judge({ known }) {
      const answered = known.filter((k) => !unanswerable(k.exchange));
      if (known.length && !answered.length) return untestable('the run ended before the answers came');
      return every(answered, {
        none: 'no listed prompt has an argument and no listed resource template a variable to complete',
        offends: (k) => completionProblem(k.exchange) !== undefined,
        violated: (bad) => `${bad.length} of ${answered.length} completion requests about what the server lists got no CompleteResult; first: ${bad[0].what}: ${completionProblem(bad[0].exchange)}`,
        evidence: (k) => evidence(`completion/complete for ${k.what}`, k.exchange, { expected: { completion: { values: ['at most 100 strings'] } } }),
        holds: (all) => `${all.length} completion request(s) (${all.map((k) => k.what).join('; ')}) answered with values (${all.map((k) => (resultOf(k.exchange)!.completion as { values: unknown[] }).values.length).join(', ')})`,
      });
    },
  }),
];
