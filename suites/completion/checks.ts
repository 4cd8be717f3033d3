// completion.*: completion/complete (server/utilities/completion, CP-01).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { check, untestable } from '../kit/check.js';
import { expectErrorCode, unanswerable } from '../kit/exchange.js';
import { completionScenario, UNKNOWN_PROMPT } from '../prompts/scenario.js';

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
];
