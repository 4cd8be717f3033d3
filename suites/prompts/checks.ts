// prompts.*: prompts/get (P26, PM-01).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { check, untestable } from '../kit/check.js';
import { needsCapableClient } from '../input-required/plain-answer.js';
import { errorCode, evidence, expectErrorCode, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import { promptsScenario, UNKNOWN_PROMPT } from './scenario.js';

const PROMPTS = { capabilities: ['prompts'] };

export const promptsChecks = [
  check(promptsScenario, {
    id: 'prompts.get',
    title: 'prompts/get with every required argument returns messages, or refuses the generated values with -32602',
    requirements: ['P26', 'PM-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: PROMPTS,
    spec: SPEC.prompts26,
    judge({ gets }) {
      const answered = gets.filter((g) => !unanswerable(g.exchange));
      // A capability refusal or a request for input is judged by mrtr.*, where mcpspec plays the rounds.
      const judged = answered.filter((g) => !needsCapableClient(g.exchange));
      return every(judged, {
        none: answered.length ? `all ${answered.length} prompts need client input or a client capability (judged by mrtr.*)` : 'prompts/list returned no prompts',
        // Argument values are free strings in the schema; a server may refuse ours (-32602), but an
        // internal error or silence means it did not validate them first.
        offends: (g) => !Array.isArray(resultOf(g.exchange)?.messages) && errorCode(g.exchange) !== -32602,
        violated: (bad) => `${bad.length} of ${judged.length} prompts/get calls failed; first: ${bad[0].prompt} with ${JSON.stringify(bad[0].args)} -> ${outcome(bad[0].exchange)}`,
        evidence: (g) => evidence(`prompts/get ${g.prompt}`, g.exchange, { expected: 'a GetPromptResult, or -32602 for argument values it refuses' }),
        holds: () => {
          const refused = judged.filter((g) => errorCode(g.exchange) === -32602).length;
          const left = answered.length - judged.length;
          return `${judged.length - refused} prompts rendered${refused ? `, ${refused} refused the generated values with -32602` : ''}${left ? `, ${left} needing client input or a client capability left to mrtr.*` : ''}`;
        },
      });
    },
  }),
  check(promptsScenario, {
    id: 'prompts.missing-args',
    title: 'prompts/get without a required argument gets -32602',
    requirements: ['PM-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: PROMPTS,
    spec: SPEC.prompts26,
    judge({ missingArgs }) {
      if (!missingArgs) return untestable('no listed prompt has a required argument');
      if (unanswerable(missingArgs.exchange)) return untestable('the run ended before the answer came');
      return expectErrorCode(missingArgs.exchange, -32602, `prompts/get ${missingArgs.prompt} without its required arguments`, `${missingArgs.prompt} without arguments got -32602`);
    },
  }),
  check(promptsScenario, {
    id: 'prompts.unknown',
    title: 'an unknown prompt gets -32602',
    requirements: ['PM-01'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: PROMPTS,
    spec: SPEC.prompts26,
    judge({ unknown }) {
      if (unanswerable(unknown)) return untestable('the run ended before the answer came');
      return expectErrorCode(unknown, -32602, `prompts/get ${UNKNOWN_PROMPT}`);
    },
  }),
];
