// robustness.*: near-valid requests generated from the schema, judged as properties (JR-04, JR-06).

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import type { GeneratedCase } from '../results/verdict.js';
import { check, holds, untestable, violated } from './check.js';
import { errorCode, evidence, isObj, outcome } from './exchange.js';
import { nearValidRequests, servedCase, unansweredCase, type NearValidObs } from './scenarios/near-valid.js';

function generated(obs: NearValidObs, c: NonNullable<NearValidObs['served']>): GeneratedCase {
  const g: GeneratedCase = { seed: obs.seed, path: c.path, value: c.value.nearValid.value, runs: obs.runs, shrinks: c.shrinks };
  if (c.budgetReached) g.shrinkBudgetReached = true;
  return g;
}

function label(c: NonNullable<NearValidObs['served']>): string {
  const l = c.value.nearValid.label;
  return `${c.value.method}: ${l.mutation} at ${l.path || '/'} (${l.keyword})`;
}

export const robustnessChecks = [
  check(nearValidRequests, {
    id: 'robustness.survives-near-valid',
    title: 'every near-valid request is answered (with its id when readable) and the server stays up',
    requirements: ['JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge(obs) {
      const judged = obs.cases.filter((c) => !c.result.exchange.aborted || c.result.exchange.response);
      if (judged.length === 0) return untestable('no near-valid request could be judged before the run ended');
      const bad = judged.filter((c) => unansweredCase(c.result));
      if (bad.length && obs.unanswered) {
        const s = obs.unanswered;
        const crashes = bad.filter((c) => c.result.crashed).length;
        return violated(
          `${bad.length} of ${judged.length} near-valid requests went unanswered${crashes ? ` (${crashes} crashed the server)` : ''}; smallest: ${label(s)} -> ${outcome(s.result.exchange)}`,
          [evidence(`shrunk case: ${label(s)}`, s.result.exchange, { pointer: s.value.nearValid.label.path, expected: 'a JSON-RPC response' })],
          generated(obs, s),
        );
      }
      const notes = judged.filter((c) => c.result.notification).length;
      return holds(`${judged.length - notes} near-valid requests, all answered${notes ? `; ${notes} without an id (notifications) did not crash it` : ''}`);
    },
  }),
  check(nearValidRequests, {
    id: 'robustness.rejects-near-valid',
    title: 'near-valid requests are refused with an error rather than served',
    requirements: ['JR-06'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge(obs) {
      const answered = obs.cases.filter((c) => !c.result.notification && isObj(c.result.exchange.response));
      if (answered.length === 0) return untestable('no near-valid request was answered at all');
      const served = answered.filter((c) => servedCase(c.result));
      if (served.length && obs.served) {
        const s = obs.served;
        return violated(
          `${served.length} of ${answered.length} answered near-valid requests were served as if valid; smallest: ${label(s)}`,
          [evidence(`shrunk case: ${label(s)}`, s.result.exchange, { pointer: s.value.nearValid.label.path, expected: 'an error response' })],
          generated(obs, s),
        );
      }
      return holds(`${answered.length} near-valid requests, all refused with an error (${[...new Set(answered.map((c) => errorCode(c.result.exchange)))].join(', ')})`);
    },
  }),
];
