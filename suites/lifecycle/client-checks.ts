// client.*, lifecycle: a client under test against the scripted servers of client-scenarios.ts
// beside it. Which era it speaks and how it falls back (ED-01..ED-05), initialize and
// notifications/initialized (LC-01, LC-05, LC-06), the version it offers and what it does with the
// answer or a counter-offer (LC-02, LC-04, VN-02, VN-03), and the capabilities it uses or is asked
// for (LC-07, CAP-01). Scenario checks judge one scripted server's exchange; oracles judge every
// message the client sent in the run. A check a client gives no chance to show is untestable, never a pass.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, oracle, untestable, violated, type Judgement } from '../kit/check.js';
import { describeExit } from '../kit/client-exit.js';
import { clip, clipJson } from '../kit/exchange.js';
import { every, firstOffenders } from '../kit/judge.js';
import type { Received } from '../ports/scripted-server.js';
import type { ClientObs } from '../client/client-run.js';
import { endedBadly, ev, fromClient, idKey, isNotification, isRequest, isResponse, requestsOf, type Msg } from '../client/client-reading.js';
import { modernMetaOf } from '../client/scripted-server.js';
import { counterOffer, legacyServer, modernServer, NEWEST_LEGACY, newestVersionServer, sdk1LegacyServer, UNSUPPORTED_VERSION, unsupportedVersionServer } from './client-scenarios.js';

// ---------------------------------------------------------------- modern server

const staysModern = check(modernServer, {
  id: 'client.stays-modern',
  title: 'after a DiscoverResult the client speaks 2026-07-28 and does not fall back to initialize',
  requirements: ['ED-01'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.versioning26,
  judge({ received }) {
    const discover = received.findIndex((r) => isRequest(r.message) && r.message.method === 'server/discover' && isObj(r.reply) && isObj(r.reply.result));
    if (discover < 0) return untestable('the client did not call server/discover');
    const init = received.slice(discover + 1).find((r) => isRequest(r.message) && r.message.method === 'initialize');
    if (init) return violated('the client sent initialize after server/discover had answered with a DiscoverResult', [ev('initialize after a DiscoverResult', init)]);
    return holds(`after the DiscoverResult the client sent ${received.length - discover - 1} more messages, none an initialize`);
  },
});

const discoverFirst = check(modernServer, {
  id: 'client.discover-first',
  title: 'over stdio a 2026-07-28 client probes with server/discover before any other request',
  requirements: ['ED-01', 'ED-03'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC.stdio26,
  judge({ received }) {
    const reqs = requestsOf(received);
    if (reqs.length === 0) return untestable('the client sent no request');
    const first = reqs[0];
    if ((first.message as Msg).method !== 'server/discover') {
      return violated(`the first request was ${String((first.message as Msg).method)}, not the server/discover probe (a legacy server could process it silently)`, [ev('the first request', first, { expected: 'server/discover' })]);
    }
    // A process started after the probe and never probed itself (the 2.x SDK probes on a sibling) is noted, not blamed.
    const unprobed = [...new Set(reqs.map((r) => r.connection))].filter((c) => (reqs.find((r) => r.connection === c)!.message as Msg).method !== 'server/discover');
    return holds(`server/discover was the first request${unprobed.length ? `; server process(es) ${unprobed.join(', ')}, started later, were not probed again (the era found first was reused)` : ''}`, [ev('the first request', first)]);
  },
});

// ---------------------------------------------------------------- legacy server

/** After its first modern request was refused by a legacy server, did the client go on with initialize? */
function judgeFallback(o: ClientObs, refusal: string): Judgement {
  const refused = o.received.findIndex((r) => isRequest(r.message) && modernMetaOf(r.message.params) && isObj(r.reply) && 'error' in r.reply);
  const init = o.received.findIndex((r) => isRequest(r.message) && r.message.method === 'initialize');
  if (refused < 0) return init >= 0 ? holds('the client started with initialize (legacy first)') : untestable('the client sent neither a modern request nor initialize');
  if (init > refused) return holds(`after ${String((o.received[refused].message as Msg).method)} was refused ${refusal} the client sent initialize`);
  return endedBadly(o, 'after its modern request was refused') ?? violated(`after ${String((o.received[refused].message as Msg).method)} was refused ${refusal} the client never sent initialize (${describeExit(o.exit)})`, [ev('the refused modern request', o.received[refused], { response: clipJson(o.received[refused].reply) })]);
}

const legacyFallback = check(legacyServer, {
  id: 'client.legacy-fallback',
  title: 'when server/discover (or a modern request) is refused by a legacy server, the client falls back to initialize',
  requirements: ['ED-01', 'ED-02'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.versioning26,
  judge: (o) => judgeFallback(o, 'with an error'),
});

const legacyFallbackHttp = check(sdk1LegacyServer, {
  id: 'client.legacy-fallback-400',
  title: 'over HTTP, a 400 whose body is no modern error (the 1.x SDK\'s -32000 with a null id) makes the client fall back to initialize',
  requirements: ['ED-04'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge: (o) => judgeFallback(o, 'with HTTP 400 and -32000 (no modern error)'),
});

const eraCached = check(legacyServer, {
  id: 'client.era-cached',
  title: 'once a legacy server made the client fall back to initialize, the client does not probe that server with 2026-07-28 requests again',
  requirements: ['ED-05'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.versioning26,
  judge(o) {
    const at = o.received.findIndex((r) => isRequest(r.message) && r.message.method === 'initialize' && isObj(r.reply) && isObj(r.reply.result));
    if (at < 0) return untestable('no initialize of the client was answered with a result');
    const modern = (r: Received) => isRequest(r.message) && (r.message.method === 'server/discover' || modernMetaOf(r.message.params) !== undefined);
    if (!o.received.slice(0, at).some(modern)) return untestable('the client started with initialize: it had found no era to remember');
    const init = o.received[at];
    // Over stdio the era belongs to the server process; over HTTP to the origin.
    const later = o.received.slice(at + 1).filter((r) => o.transport === 'http' || r.connection === init.connection);
    const again = later.filter(modern);
    if (again.length) return violated(`after falling back to initialize the client sent ${again.length} 2026-07-28 request(s) to the same server; first: ${String((again[0].message as Msg).method)}`, [ev('a modern request after the fallback', again[0], { response: clipJson(again[0].reply) })]);
    return holds(`after falling back to initialize, ${later.length} later message(s), none a 2026-07-28 probe`);
  },
});

/** Initialize requests the script answered with a result, each with the messages of its session after it. */
function initSessions(received: Received[]): { init: Received; after: Received[] }[] {
  const out: { init: Received; after: Received[] }[] = [];
  for (const r of received) {
    if (!isRequest(r.message) || r.message.method !== 'initialize' || !isObj(r.reply) || !isObj(r.reply.result)) continue;
    const after = received.filter((x) => x.seq > r.seq && (x.connection === r.connection));
    out.push({ init: r, after });
  }
  return out;
}

const initialized = check(legacyServer, {
  id: 'client.initialized',
  title: 'after the initialize result the client sends notifications/initialized before any other request but ping',
  requirements: ['LC-05'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const sessions = initSessions(o.received);
    if (sessions.length === 0) return untestable('the client never completed initialize');
    for (const { init, after } of sessions) {
      const next = after.find((r) => isObj(r.message) && typeof r.message.method === 'string' && r.message.method !== 'ping' && r.seq > (init.replySeq ?? init.seq));
      if (!next) {
        if (o.exit.timedOut) continue;
        return violated('the client sent nothing after the initialize result (no notifications/initialized)', [ev('initialize', init, { response: clipJson(init.reply) })]);
      }
      if (!(isNotification(next.message) && next.message.method === 'notifications/initialized')) {
        return violated(`the first message after the initialize result is ${String((next.message as Msg).method)}, not notifications/initialized`, [ev('initialize', init), ev('next message', next)]);
      }
    }
    return holds(`${sessions.length} session(s): notifications/initialized came first after the initialize result`);
  },
});

const initWait = check(legacyServer, {
  id: 'client.init-wait',
  title: 'the client sends nothing but ping before the initialize result arrives',
  requirements: ['LC-06'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const inits = o.received.filter((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (inits.length === 0) return untestable('the client never got an initialize result');
    // Each answer was held a fixed time from its arrival (not from the client's last message), so a
    // client that does not wait sends inside the hold in every run.
    const held = o.log.initializeHeldMs ? ` (each held ${o.log.initializeHeldMs} ms)` : '';
    for (const init of inits) {
      const early = o.received.filter((r) => r.seq > init.seq && r.seq < init.replySeq! && r.connection === init.connection && r.httpMethod !== 'DELETE' && r.httpMethod !== 'GET' && !(isObj(r.message) && r.message.method === 'ping'));
      if (early.length) return violated(`the client sent ${early.length} message(s) while its initialize was unanswered${held}; first: ${String((early[0].message as Msg)?.method ?? 'a body')}`, [ev('initialize', init), ...firstOffenders(early).map((r) => ev('sent before the initialize result', r))]);
    }
    return holds(`nothing but ping was sent before ${inits.length} initialize result(s)${held}`);
  },
});

const undeclaredRequest = check(legacyServer, {
  id: 'client.undeclared-request',
  title: 'a server request for a capability the client did not declare is answered with an error, not a result',
  requirements: ['LC-07', 'JR-10'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const asked = o.log.serverRequests.filter((r) => !r.declared);
    if (asked.length === 0) return untestable(o.log.serverRequests.length ? 'the client declared roots, sampling and elicitation: nothing undeclared to ask' : 'the client sent no request after notifications/initialized, so the server had no stream to ask it on');
    const bad: Evidence[] = [];
    for (const a of asked) {
      const reply = o.received.find((r) => isResponse(r.message) && r.message.id === a.id);
      if (!reply) bad.push({ what: `${a.method} (not declared) was never answered`, expected: 'an error response (e.g. -32601)' });
      else if (!('error' in (reply.message as Msg))) bad.push(ev(`${a.method} was answered with a result although the client did not declare it`, reply, { expected: 'an error response (e.g. -32601)' }));
    }
    if (bad.length) return violated(bad[0].what, bad);
    return holds(`${asked.map((a) => a.method).join(', ')} (not declared) answered with an error`);
  },
});

// ---------------------------------------------------------------- version negotiation

const counterOfferCheck = check(counterOffer, {
  id: 'client.counteroffer',
  title: 'after -32022 the client retries with a version from data.supported (with a new id) or stops; it never repeats the refused version',
  requirements: ['VN-03', 'VN-02'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.versioning26,
  judge(o) {
    if (o.log.refused.length === 0) return untestable('the client sent no modern request, so nothing was refused');
    const first = o.log.refused[0];
    const at = o.received.findIndex((r) => isRequest(r.message) && r.message.id === first.id);
    const after = o.received.slice(at + 1).filter((r) => isRequest(r.message) && r.message.method !== 'ping');
    const refusedAgain = after.filter((r) => modernMetaOf((r.message as Msg).params)?.[META_PROTOCOL_VERSION] === first.version);
    if (refusedAgain.length) return violated(`after -32022 the client sent ${refusedAgain.length} more request(s) with the refused version ${String(first.version)}`, firstOffenders(refusedAgain).map((r) => ev('request repeating the refused version', r, { expected: first.supported })));
    const next = after[0];
    if (!next) return holds(`after -32022 the client stopped (${describeExit(o.exit)})`);
    const m = next.message as Msg;
    const version = m.method === 'initialize' && isObj(m.params) ? m.params.protocolVersion : modernMetaOf(m.params)?.[META_PROTOCOL_VERSION];
    if (!first.supported.includes(String(version))) return violated(`after -32022 (supported: ${first.supported.join(', ')}) the client went on with version ${String(version)}`, [ev('the next request', next, { expected: first.supported })]);
    if (m.id === first.id && m.method !== 'initialize') return violated('the retry reuses the refused request\'s id', [ev('the retry', next)]);
    return holds(`after -32022 the client went on with ${String(version)}, a version the server listed`);
  },
});

/** Messages that start over rather than go on with a session: a new initialize, a discover probe, ending the HTTP session. */
const startsOver = (r: Received) => r.httpMethod === 'DELETE' || (isRequest(r.message) && (r.message.method === 'initialize' || r.message.method === 'server/discover'));

const unsupportedVersionDisconnects = check(unsupportedVersionServer, {
  id: 'client.unsupported-version-disconnects',
  title: 'a client answered initialize with a protocol version it does not support does not go on with that session',
  requirements: ['LC-04'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('the client sent no initialize (it spoke 2026-07-28 only, or never got an answer)');
    const crashed = endedBadly(o, `after initialize was answered with ${UNSUPPORTED_VERSION}`);
    if (crashed) return crashed;
    // stdio: the same server process; HTTP: any session (every initialize got the same answer).
    const after = o.received.filter((r) => r.seq > init.replySeq! && (o.transport === 'http' || r.connection === init.connection) && !startsOver(r));
    if (after.length) {
      const what = after.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : r.httpMethod ?? 'a message'));
      return violated(`answered protocolVersion ${UNSUPPORTED_VERSION}, the client went on with ${[...new Set(what)].slice(0, 4).join(', ')} (${after.length} message(s))`,
        [ev('initialize', init, { response: clipJson(init.reply), expected: 'no further message in that session (disconnect)' }), ...after.slice(0, 2).map((r) => ev('sent after the unsupported version', r))]);
    }
    return holds(`answered protocolVersion ${UNSUPPORTED_VERSION}, the client sent nothing more in that session (${describeExit(o.exit)})`,
      [ev('initialize', init, { response: clipJson(init.reply) }), { what: 'client exit', actual: { ...o.exit, stderrTail: o.exit.stderrTail.slice(-400), stdoutTail: undefined } }]);
  },
});

const offersNewest = check(newestVersionServer, {
  id: 'client.offers-newest',
  title: `initialize offers the newest version the client supports: answered ${NEWEST_LEGACY}, a client that offered an older one does not go on`,
  requirements: ['LC-02'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('the client sent no initialize (it spoke 2026-07-28 only, or never got an answer)');
    const offered = isObj((init.message as Msg).params) ? ((init.message as Msg).params as Msg).protocolVersion : undefined;
    if (offered === NEWEST_LEGACY) return holds(`the client offered ${NEWEST_LEGACY}, the newest legacy version`, [ev('initialize', init)]);
    const crashed = endedBadly(o, `after initialize was answered with ${NEWEST_LEGACY}`);
    if (crashed) return crashed;
    // Going on with the answered version says the client supports it: then it should have offered it.
    const after = o.received.filter((r) => r.seq > init.replySeq! && (o.transport === 'http' || r.connection === init.connection) && !startsOver(r));
    if (after.length) {
      return violated(`the client offered ${String(offered)}, then went on with the server's ${NEWEST_LEGACY}: it supports the newer version and should have offered it`,
        [ev('initialize', init, { response: clipJson(init.reply), expected: `protocolVersion ${NEWEST_LEGACY} in initialize` }), ev('sent after the answer', after[0])]);
    }
    return holds(`the client offered ${String(offered)} and did not go on with ${NEWEST_LEGACY} (it does not support it; ${describeExit(o.exit)})`, [ev('initialize', init)]);
  },
});

// ---------------------------------------------------------------- oracles over every client message

const initializeParams = oracle({
  id: 'client.initialize-params',
  title: 'every initialize the client sends carries protocolVersion, capabilities and clientInfo (name, version)',
  requirements: ['LC-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(obs) {
    const missing = (m: Msg) => {
      const p = isObj(m.params) ? m.params : {};
      const info = p.clientInfo;
      return [
        typeof p.protocolVersion !== 'string' && 'protocolVersion',
        !isObj(p.capabilities) && 'capabilities',
        !(isObj(info) && typeof info.name === 'string' && typeof info.version === 'string') && 'clientInfo{name,version}',
      ].filter((x): x is string => typeof x === 'string');
    };
    return every(fromClient(obs.events).filter((e) => isRequest(e.message) && e.message.method === 'initialize'), {
      none: 'the client sent no initialize (it spoke 2026-07-28 only)',
      offends: (e) => missing(e.message as Msg).length > 0,
      violated: (bad, inits) => `${bad.length} of ${inits.length} initialize requests lack ${missing(bad[0].message as Msg).join(', ')}`,
      evidence: (e) => ({ what: `initialize without ${missing(e.message as Msg).join(', ')}`, actual: clipJson(e.message, 400), expected: 'params.protocolVersion, params.capabilities, params.clientInfo{name,version}', seq: [e.seq] }),
      holds: (inits) => `${inits.length} initialize requests, each with protocolVersion, capabilities and clientInfo`,
    });
  },
});

/** The server capability each client method needs (LC-07, CAP-01). */
const NEEDS: Record<string, string> = {
  'logging/setLevel': 'logging',
  'completion/complete': 'completions',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'resources/list': 'resources',
  'resources/read': 'resources',
  'resources/templates/list': 'resources',
  'resources/subscribe': 'resources.subscribe',
  'resources/unsubscribe': 'resources.subscribe',
  'tools/list': 'tools',
  'tools/call': 'tools',
};

function declares(caps: Msg, need: string): boolean {
  const [family, flag] = need.split('.');
  const c = caps[family];
  return isObj(c) && (flag === undefined || c[flag] === true);
}

const usesDeclared = oracle({
  id: 'client.uses-declared-capabilities',
  title: 'after initialize the client calls no method of a server capability the server did not declare',
  requirements: ['LC-07', 'CAP-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(obs) {
    // The capabilities each scenario's server declared in its latest initialize result.
    const declared: { source: string | undefined; seq: number; caps: Msg }[] = [];
    const initIds = new Set(fromClient(obs.events).filter((e) => isRequest(e.message) && e.message.method === 'initialize').map((e) => `${e.source}|${idKey((e.message as Msg).id)}`));
    for (const e of obs.events) {
      if (e.dir !== 'out' || !isResponse(e.message) || !initIds.has(`${e.source}|${idKey(e.message.id)}`)) continue;
      const r = e.message.result;
      if (isObj(r) && isObj(r.capabilities)) declared.push({ source: e.source, seq: e.seq, caps: r.capabilities as Msg });
    }
    if (declared.length === 0) return untestable('no initialize of the client was answered with capabilities');
    let judged = 0;
    const bad: Evidence[] = [];
    for (const e of fromClient(obs.events)) {
      if (!isRequest(e.message) || !(e.message.method in NEEDS)) continue;
      const caps = declared.filter((d) => d.source === e.source && d.seq < e.seq).pop();
      if (!caps) continue;
      judged++;
      const need = NEEDS[e.message.method];
      if (!declares(caps.caps, need)) bad.push({ what: `${e.message.method} sent to a server that declared no ${need} capability`, actual: clipJson(e.message, 400), expected: `no ${e.message.method} (the server's capabilities: ${clip(JSON.stringify(caps.caps), 200)})`, seq: [e.seq] });
    }
    if (judged === 0) return untestable('the client called no capability-gated method after an initialize');
    if (bad.length) return violated(`${bad.length} of ${judged} requests use a capability the server did not declare; first: ${bad[0].what}`, firstOffenders(bad));
    return holds(`${judged} capability-gated requests, each of a capability the server declared`);
  },
});

export const lifecycleClientChecks = [
  staysModern, discoverFirst,
  legacyFallback, legacyFallbackHttp, eraCached, initialized, initWait, undeclaredRequest,
  counterOfferCheck, unsupportedVersionDisconnects, offersNewest,
  initializeParams, usesDeclared,
];
