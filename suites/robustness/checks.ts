// robustness.*: near-valid requests generated from the schema, judged as properties (JR-04, JR-06),
// and two oracles over every session of a run (the suite's and each fuzz sequence's): the target
// stays up, and it keeps answering.

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { GeneratedCase } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { clip, errorCode, evidence, isObj, outcome } from '../kit/exchange.js';
import { firstOffenders } from '../kit/judge.js';
import type { Exchange } from '../ports/session.js';
import { describeExit, unexpectedExits } from '../kit/target-exit.js';
import { nearValidRequests, servedCase, unansweredCase, type NearValidObs } from './near-valid-scenario.js';

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
  oracle({
    id: 'robustness.stays-up',
    title: 'the target neither exits nor drops the connection while mcpspec uses it',
    requirements: ['JR-04', 'JR-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ exchanges, events }) {
      // A process exit first: the connections it broke (a server mcpspec started over HTTP) follow from it.
      const all = unexpectedExits(events);
      const died = all.filter((e) => e.data?.exitCode !== undefined);
      const lost = all.filter((e) => e.data?.exitCode === undefined);
      const exits = [...died, ...lost];
      const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      const times = died.length && lost.length ? ` (${plural(died.length, 'exit')} and ${plural(lost.length, 'lost connection')} in the run)` : exits.length > 1 ? ` (${exits.length} times in the run)` : '';
      if (exits.length) {
        return violated(
          `the target ${describeExit(exits[0])}${times}`,
          exits.slice(0, 5).map((e) => ({ what: `${describeExit(e)}; last message sent: ${clip(String(e.data?.lastSent ?? '-'), 300)}`, actual: clip(String(e.data?.stderrTail ?? ''), 1000) || undefined, seq: [e.seq] })),
        );
      }
      return holds(`no exit or lost connection mcpspec did not cause, over ${exchanges.length} exchanges`);
    },
  }),
  oracle({
    id: 'robustness.keeps-answering',
    title: 'the target keeps answering: once a request went unanswered for its timeout, a ping (or an unknown method) sent after it is answered',
    requirements: ['JR-04'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ exchanges, events }) {
      const hung = hungProbes(exchanges, events);
      if (hung.length) {
        const first = hung[0];
        return violated(
          `the target stopped answering: neither ${first.map((p) => p.method).join(' nor ')} was answered within ${first[0].timeoutMs} ms, after a request that had gone unanswered for its whole timeout`,
          firstOffenders(hung).map((pair) => evidence('liveness probe unanswered', pair[0], { expected: 'a response (any: a result or an error)' })),
        );
      }
      const probed = new Set(exchanges.flatMap((ex) => (ex.liveness !== undefined ? [ex.liveness] : []))).size;
      return holds(probed ? `${probed} time(s) a request went unanswered for its timeout, and the target answered the probe sent after it` : `no request went unanswered for its timeout (${exchanges.length} exchanges)`);
    },
  }),
];

/**
 * The liveness probe pairs nothing answered: every probe of the pair went silent for its whole
 * timeout, and nothing at all came from the target on that connection after they were sent (a late
 * answer means it was slow, as a tool may be by design, not hung).
 */
export function hungProbes(exchanges: Exchange[], events: WireEvent[]): Exchange[][] {
  const pairs = new Map<number, Exchange[]>();
  for (const ex of exchanges) if (ex.liveness !== undefined) pairs.set(ex.liveness, [...(pairs.get(ex.liveness) ?? []), ex]);
  const sourceOf = new Map(events.map((e) => [e.seq, e.source]));
  return [...pairs.values()].filter((pair) => {
    if (!pair.every((p) => p.timedOut && p.response === undefined && !p.aborted && !p.closed)) return false;
    const sent = Math.min(...pair.map((p) => p.seq[0] ?? Number.POSITIVE_INFINITY));
    const source = sourceOf.get(sent);
    return !events.some((e) => e.seq > sent && e.dir === 'in' && e.kind === 'message' && e.source === source);
  });
}
