// asks.*: requests a legacy server sends (asks of) its client (2025-11-25, 2025-06-18; JR-10, LC-07):
// only for capabilities the session declared, valid for their method, and the call they came
// during still completes once mcpspec answered them.

import { messages } from '../../arbitraries/messages.js';
import { SPEC } from '../../protocol/spec-links.js';
import { LEGACY } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { clipJson, evidence, isObj, outcome } from '../kit/exchange.js';
import { every, firstOffenders } from '../kit/judge.js';
import { capableClientScenario } from '../input-required/capable-client-scenario.js';
import type { Call } from './scenario.js';

const ANY = { anyCapability: ['tools', 'prompts', 'resources'] };
/** The client capability each server-to-client request needs. */
const NEEDS: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

type Msg = Record<string, unknown> & { method: string };
const serverRequest = (e: WireEvent): e is WireEvent & { message: Msg } => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message;

/** Each server request of the run with the capabilities its session declared in initialize. */
function requestsWithDeclared(events: WireEvent[]): { e: WireEvent & { message: Msg }; declared: Record<string, unknown> }[] {
  const declared = new Map<string | undefined, Record<string, unknown>>();
  const out: { e: WireEvent & { message: Msg }; declared: Record<string, unknown> }[] = [];
  for (const e of events) {
    const m = e.message;
    if (e.dir === 'out' && isObj(m) && m.method === 'initialize' && isObj(m.params)) declared.set(e.source, isObj(m.params.capabilities) ? m.params.capabilities : {});
    else if (serverRequest(e)) out.push({ e, declared: declared.get(e.source) ?? {} });
  }
  return out;
}

const NONE = 'the server sent the client no requests (mcpspec declared elicitation, sampling and roots and tried its tools, prompts and resources)';

/** Requests that came during a call but not again when it was repeated: the server's own clock. */
function unconfirmedNote(calls: Call[]): string {
  const off = calls.flatMap((c) => (c.unconfirmed ?? []).map((m) => `${isObj(m) ? String(m.method) : '?'} during ${c.target}`));
  return off.length ? ` (${firstOffenders(off).join(', ')} came once, not again when the call was repeated)` : '';
}

export const asksChecks = [
  oracle({
    id: 'asks.declared',
    title: 'the server sends elicitation/create, sampling/createMessage and roots/list only to a client that declared that capability',
    requirements: ['LC-07', 'JR-10'],
    level: 'MUST',
    versions: LEGACY,
    requires: ANY,
    spec: SPEC.lifecycle25,
    judge({ events }) {
      return every(requestsWithDeclared(events).filter(({ e }) => e.message.method in NEEDS), {
        none: NONE,
        offends: ({ e, declared }) => !(NEEDS[e.message.method] in declared),
        violated: (bad, all) => `${bad.length} of ${all.length} server requests need a capability the session did not declare; first: ${bad[0].e.message.method} (${bad[0].e.source ?? 'run'})`,
        evidence: ({ e, declared }) => ({ what: `${e.message.method} needs ${NEEDS[e.message.method]}`, actual: clipJson(e.message), expected: `declared in initialize: ${JSON.stringify(declared)}`, seq: [e.seq] }),
        holds: (all) => `${all.length} server requests, each for a capability its session declared`,
      });
    },
  }),
  oracle({
    id: 'asks.schema',
    title: 'every request the server sends the client is a server-to-client request of the version, valid against its schema',
    requirements: ['JR-10'],
    level: 'MUST',
    versions: LEGACY,
    requires: ANY,
    spec: SPEC.basic25,
    judge({ events, version }) {
      const all = requestsWithDeclared(events).map(({ e }) => e);
      if (all.length === 0) return untestable(NONE);
      const m = messages(version);
      const bad: Evidence[] = [];
      for (const e of all) {
        const info = m.index.get(e.message.method);
        if (!info || info.kind !== 'request' || info.direction === 'client-to-server') {
          bad.push({ what: `${e.message.method} is not a request a ${version} server may send`, actual: clipJson(e.message), seq: [e.seq] });
          continue;
        }
        const arbs = m.of(info.definition);
        if (!arbs.validate(e.message)) bad.push({ what: `${e.message.method} is not a valid ${info.definition}`, actual: clipJson(e.message), seq: [e.seq] });
      }
      if (bad.length) return violated(`${bad.length} of ${all.length} server requests are invalid; first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${all.length} server requests (${[...new Set(all.map((e) => e.message.method))].join(', ')}) valid against the ${version} schema`);
    },
  }),
  check(capableClientScenario, {
    id: 'asks.on-request-stream',
    title: 'over HTTP, what the server asks the client for a call comes on that call\'s own response stream, not on the standalone GET stream',
    requirements: ['HL-04', 'HL-05'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { transports: ['http'] },
    spec: SPEC.transports25,
    judge({ cancel, calls }) {
      // A question belongs to a call when the same call, made again, asks it again (the cancellation
      // probe repeats the first call that asked): a roots/list a server sends on its own may merely
      // fall inside some call.
      if (!cancel || cancel.askedOn === undefined) {
        const asking = calls.filter((c) => c.asked.length > 0).length;
        return untestable(asking ? 'no call asked the client again when made a second time, so no question is known to belong to a call' : 'no call made the server ask the client anything');
      }
      if (cancel.askedOn === 'get') {
        return violated(`${cancel.target} asked ${cancel.asked} on the standalone GET stream, not on the call's own stream (it asked again when called again); a client without that stream never sees it`,
          [evidence(cancel.target, cancel.call, { actual: `${cancel.asked} on the GET stream`, expected: 'the server\'s requests on the call\'s own SSE stream' })]);
      }
      return holds(`${cancel.target} asked ${cancel.asked} on its own stream, and again when called again`);
    },
  }),
  check(capableClientScenario, {
    id: 'asks.answered',
    title: 'a call during which the server asked the client something completes once mcpspec answered',
    requirements: ['JR-10'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: ANY,
    spec: SPEC.basic25,
    judge({ calls }) {
      return every(calls.filter((c) => c.asked.length > 0 && !c.exchange.aborted), {
        none: calls.length ? `none of ${calls.length} calls made the server ask the client anything${unconfirmedNote(calls)}` : 'nothing could be tried',
        offends: (c) => !c.exchange.response,
        violated: (bad, asking) => `${bad.length} of ${asking.length} calls got no answer after mcpspec answered the server's requests; first: ${bad[0].target} -> ${outcome(bad[0].exchange)}`,
        evidence: (c) => evidence(c.target, c.exchange, { actual: clipJson(c.asked), expected: 'the response, once the server\'s requests were answered' }),
        holds: (asking) => `${asking.length} calls completed after ${asking.reduce((n, c) => n + c.asked.length, 0)} server requests were answered (${[...new Set(asking.map((c) => c.target))].slice(0, 4).join(', ')})`,
      });
    },
  }),
];
