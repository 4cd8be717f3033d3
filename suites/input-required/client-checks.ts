// client.mrtr-*, client.result-type-*: a client under test against the input_required scenarios of
// client-scenarios.ts beside it: its retries fulfil the input requests (IR-05, IR-07), echo
// requestState (IR-06), are new requests (IR-07) and carry MRTR fields only where they belong
// (IR-08); a result without resultType is complete (RT-05), one with an unknown resultType invalid (RT-04).

import { isObj } from '../../protocol/jsonrpc.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { describeExit } from '../kit/client-exit.js';
import { every, firstOffenders } from '../kit/judge.js';
import type { Received } from '../ports/scripted-server.js';
import { endedBadly, ev, isRequest, paramsOf, requestsOf, targetOf, type Msg } from '../client/client-reading.js';
import { inputRequired, inputRequiredStateless, resultTypes, UNKNOWN_STATE, type Round } from './client-scenarios.js';

// ---------------------------------------------------------------- input_required (MRTR)

interface Retry<R = Round> {
  round: R;
  retry?: Received;
}

/** Each input_required round with the client's retry: the next request of the same method and target. */
function retries<R extends Pick<Round, 'seq' | 'method' | 'target'>>(o: { received: Received[]; rounds: R[] }): Retry<R>[] {
  return o.rounds.map((round) => {
    const retry = o.received.find((r) => r.seq > round.seq && isRequest(r.message) && r.message.method === round.method && targetOf(r.message.params) === round.target);
    return { round, retry };
  });
}

const mrtrFulfils = check(inputRequired, {
  id: 'client.mrtr-fulfils',
  title: 'the retry after input_required carries inputResponses for exactly the inputRequests, each a valid result of its kind',
  requirements: ['IR-05', 'IR-07'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { anyCapability: ['elicitation', 'sampling', 'roots'] },
  spec: SPEC.mrtr26,
  judge(o) {
    const withAsks = retries(o).filter((x) => x.round.inputKeys.length > 0 && x.retry);
    if (withAsks.length === 0) return untestable(o.rounds.some((r) => r.inputKeys.length) ? 'the client never retried a request that carried inputRequests' : 'no input_required round carried inputRequests (the client declared none of elicitation, sampling, roots on those requests)');
    const doc = loadSchema('2026-07-28');
    const resultDef: Record<string, string> = { name: 'ElicitResult', draft: 'CreateMessageResult', roots: 'ListRootsResult' };
    const bad: Evidence[] = [];
    for (const { round, retry } of withAsks) {
      const responses = paramsOf(retry!).inputResponses;
      if (!isObj(responses)) {
        bad.push(ev(`the ${round.method} retry has no inputResponses`, retry!, { expected: round.inputKeys }));
        continue;
      }
      const keys = Object.keys(responses).sort();
      if (JSON.stringify(keys) !== JSON.stringify([...round.inputKeys].sort())) bad.push(ev(`the ${round.method} retry answers keys ${keys.join(', ') || '(none)'}`, retry!, { expected: round.inputKeys }));
      for (const k of round.inputKeys) if (k in responses && !doc.validator(resultDef[k])(responses[k])) bad.push(ev(`inputResponses.${k} is not a valid ${resultDef[k]}`, retry!, { pointer: `/params/inputResponses/${k}` }));
    }
    if (bad.length) return violated(`${bad.length} problem(s) in inputResponses; first: ${bad[0].what}`, bad.slice(0, 4));
    return holds(`${withAsks.length} retries, each answering exactly the input requests`);
  },
});

const mrtrRequestState = check(inputRequired, {
  id: 'client.mrtr-request-state',
  title: 'the retry echoes requestState byte for byte',
  requirements: ['IR-06'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.mrtr26,
  judge(o) {
    return every(retries(o).filter((x) => x.retry), {
      none: o.rounds.length ? 'the client never retried after input_required' : 'the client called none of tools/call, prompts/get, resources/read',
      offends: (x) => paramsOf(x.retry!).requestState !== x.round.requestState,
      violated: (bad, done) => `${bad.length} of ${done.length} retries do not echo requestState exactly`,
      evidence: (x) => ev(`the ${x.round.method} retry (round ${x.round.round})`, x.retry!, { pointer: '/params/requestState', expected: x.round.requestState, actual: paramsOf(x.retry!).requestState ?? '(absent)' }),
      holds: (done) => `${done.length} retries (${Math.max(...done.map((x) => x.round.round))} round(s) deep), each echoing requestState exactly`,
    });
  },
});

const mrtrNoInventedState = check(inputRequiredStateless, {
  id: 'client.mrtr-no-invented-state',
  title: 'the retry after an input_required result without requestState carries no requestState',
  requirements: ['IR-06'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { anyCapability: ['elicitation', 'sampling', 'roots'] },
  spec: SPEC.mrtr26,
  judge(o) {
    return every(retries(o).filter((x) => x.retry), {
      none: o.rounds.length ? 'the client never retried after input_required' : 'the client called none of tools/call, prompts/get, resources/read',
      offends: (x) => 'requestState' in paramsOf(x.retry!),
      violated: (bad, all) => `${bad.length} of ${all.length} retries carry a requestState the server never gave`,
      evidence: (x) => ev(`the ${x.round.method} retry`, x.retry!, { pointer: '/params/requestState', expected: '(absent)', actual: paramsOf(x.retry!).requestState }),
      holds: (all) => `${all.length} retries after a stateless input_required, none with a requestState`,
    });
  },
});

const stripRetry = (p: Msg) => {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = p;
  return JSON.stringify(rest);
};

const mrtrRetryId = check(inputRequired, {
  id: 'client.mrtr-retry-id',
  title: 'the retry is a new request (a different JSON-RPC id) repeating the original method and params',
  requirements: ['IR-07'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.mrtr26,
  judge(o) {
    const done = retries(o).filter((x) => x.retry);
    if (done.length === 0) return untestable(o.rounds.length ? 'the client never retried after input_required' : 'the client called none of tools/call, prompts/get, resources/read');
    const bad: Evidence[] = [];
    for (const { round, retry } of done) {
      const original = o.received.find((r) => r.seq === round.seq)!;
      if (JSON.stringify((retry!.message as Msg).id) === JSON.stringify(round.id)) bad.push(ev(`the ${round.method} retry reuses id ${JSON.stringify(round.id)}`, retry!));
      else if (stripRetry(paramsOf(retry!)) !== stripRetry(paramsOf(original))) bad.push(ev(`the ${round.method} retry changes the params`, retry!, { expected: JSON.parse(stripRetry(paramsOf(original))) }));
    }
    if (bad.length) return violated(`${bad.length} of ${done.length} retries are not new requests with the same params; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${done.length} retries, each a new id with the original params`);
  },
});

const mrtrScoped = check(inputRequired, {
  id: 'client.mrtr-scoped',
  title: 'inputResponses and requestState go only on the retry they answer, never on other requests',
  requirements: ['IR-08', 'IR-06'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.mrtr26,
  judge(o) {
    if (o.rounds.length === 0) return untestable('the client called none of tools/call, prompts/get, resources/read');
    const rs = retries(o);
    const retrySeqs = new Map(rs.filter((x) => x.retry).map((x) => [x.retry!.seq, x.round]));
    const after = requestsOf(o.received).filter((r) => r.seq > o.rounds[0].seq);
    const bad: Evidence[] = [];
    for (const r of after) {
      const p = paramsOf(r);
      const round = retrySeqs.get(r.seq);
      if (!round) {
        if ('inputResponses' in p || 'requestState' in p) bad.push(ev(`${String((r.message as Msg).method)} is not a retry but carries ${'inputResponses' in p ? 'inputResponses' : 'requestState'}`, r));
      } else if (round.inputKeys.length === 0 && 'inputResponses' in p) bad.push(ev(`the ${round.method} retry of a requestState-only round carries inputResponses`, r));
    }
    if (bad.length) return violated(`${bad.length} request(s) carry MRTR fields that do not belong to them; first: ${bad[0].what}`, firstOffenders(bad));
    if (after.length <= retrySeqs.size) return untestable('the client sent no request after input_required other than its retries');
    return holds(`${after.length - retrySeqs.size} other requests after input_required, none carrying inputResponses or requestState`);
  },
});

// ---------------------------------------------------------------- resultType

const resultTypeMissing = check(resultTypes, {
  id: 'client.result-type-missing',
  title: 'a result without resultType (server/discover) is treated as complete: the client goes on as against the plain server',
  requirements: ['RT-05'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.basic26,
  judge(o) {
    if (o.bareDiscover.length === 0) return untestable('the client did not call server/discover');
    const crashed = endedBadly(o, 'after a result without resultType');
    if (crashed) return crashed;
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize');
    if (init) return violated('after a DiscoverResult without resultType the client fell back to initialize', [ev('initialize', init)]);
    const again = o.received.filter((r) => isRequest(r.message) && r.message.method === 'server/discover').length;
    // The same run also answers tools/call, prompts/get or resources/read with an unknown resultType: a
    // client whose only job was that call rightly fails it and may exit non-zero for that (RT-04). Once it
    // made such a call it plainly went on after the bare DiscoverResult, so its exit says nothing here.
    const wentOn = o.unknown.length > 0;
    if (!wentOn && o.plain && o.plain.exit.exitCode === 0 && o.exit.exitCode !== 0) return violated(`the client ${describeExit(o.exit)} here but exited 0 against the plain server: it did not treat the result as complete`, [{ what: 'client exit', actual: { exitCode: o.exit.exitCode, stderr: o.exit.stderrTail.slice(-400) } }]);
    if (o.plain && again > o.plain.methods.filter((m) => m === 'server/discover').length) return violated('the client repeated server/discover more often than against the plain server: it did not accept the result', []);
    if (wentOn) return holds(`the client went on after the bare DiscoverResult to ${o.unknown[0].method} (then ${describeExit(o.exit)}, after the unknown resultType there)`);
    return holds(`the client went on after the bare DiscoverResult (${describeExit(o.exit)})`);
  },
});

const resultTypeUnknown = check(resultTypes, {
  id: 'client.result-type-unknown',
  title: 'a result with an unknown resultType is treated as invalid: not acted on as input_required, no crash',
  requirements: ['RT-04'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.basic26,
  judge(o) {
    if (o.unknown.length === 0) return untestable('the client called none of tools/call, prompts/get, resources/read');
    const crashed = endedBadly(o, 'on a result with an unknown resultType');
    if (crashed) return crashed;
    const acted = o.received.filter((r) => isRequest(r.message) && paramsOf(r).requestState === UNKNOWN_STATE);
    if (acted.length) return violated('the client retried with the requestState of a result whose resultType it cannot know', acted.slice(0, 2).map((r) => ev('retry acting on an unknown resultType', r)));
    return holds(`${o.unknown.length} unknown-resultType result(s), none acted on (${describeExit(o.exit)})`);
  },
});

export const inputRequiredClientChecks = [mrtrFulfils, mrtrRequestState, mrtrNoInventedState, mrtrRetryId, mrtrScoped, resultTypeMissing, resultTypeUnknown];
