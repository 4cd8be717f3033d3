// client.*: checks on a client under test (role client). mcpspec plays a scripted server
// (scripted-server.ts, scenarios in scenarios.ts beside it) and judges what the client sends and
// how it ends. Scenario checks judge one scripted server's exchange; oracles judge every message
// the client sent in the run. A check a client gives no chance to show is untestable, never a pass.

import { encodeHeaderValue, isPlainHeaderValue } from '../../protocol/http-headers.js';
import { isObj } from '../../protocol/jsonrpc.js';
import { PARAM_HEADER_PREFIX, paramHeaderDeclarations, paramHeaderText, valueAtPath } from '../../protocol/param-headers.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { messages } from '../../arbitraries/messages.js';
import { check, holds, oracle, untestable, violated, type Judgement } from '../kit/check.js';
import { crashOf, describeExit } from '../kit/client-exit.js';
import { clipJson } from '../kit/exchange.js';
import { judgeMetaKeyNames } from '../meta/checks.js';
import type { RunObservations } from '../kit/observations.js';
import type { Received } from '../ports/scripted-server.js';
import {
  brokenStreamServer, cachingServer, dyingServer, counterOffer, NEWEST_LEGACY, newestVersionServer, UNSUPPORTED_VERSION, unsupportedVersionServer, inputRequired, legacyTasksServer, LONG_TTL_MS, legacyServer, modernServer, MRTR_METHODS, nearValidAnswers, pollingServer, resultTypes, sdk1LegacyServer, sseAnswers, stderrLogs, targetOf, tasksServer, TASKS_EXTENSION, UNKNOWN_STATE,
  type ClientObs, type Round, type TaskLog,
} from './scenarios.js';
import { modernMetaOf, SESSION_ID, TOOL } from './scripted-server.js';

const SPEC_CLIENT = {
  lifecycle25: SPEC.lifecycle25,
  transports25: SPEC.transports25,
  basic26: SPEC.basic26,
  versioning26: SPEC.versioning26,
  http26: SPEC.http26,
  stdio26: SPEC.stdio26,
  mrtr26: 'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr',
};

type Msg = Record<string, unknown>;
const msgOf = (r: Received): Msg | undefined => (isObj(r.message) ? r.message : undefined);
const isRequest = (m: unknown): m is Msg & { method: string } => isObj(m) && typeof m.method === 'string' && 'id' in m;
const isNotification = (m: unknown): m is Msg & { method: string } => isObj(m) && typeof m.method === 'string' && !('id' in m);
const isResponse = (m: unknown): m is Msg => isObj(m) && typeof m.method !== 'string' && ('result' in m || 'error' in m);
const requestsOf = (received: Received[]) => received.filter((r) => isRequest(r.message));
const ev = (what: string, r: Received, extra: Partial<Evidence> = {}): Evidence => ({ what, actual: clipJson(r.message, 800), seq: [r.seq], ...extra });

/** The crash or hang that makes a scenario's judgement moot, as a violation of the check at hand. */
function endedBadly(o: ClientObs, what: string): Judgement | undefined {
  const crash = crashOf(o.exit);
  if (crash) return violated(`the client crashed ${what}: ${crash}`, [{ what: 'client exit', actual: { ...o.exit, stderrTail: o.exit.stderrTail.slice(-600), stdoutTail: undefined } }]);
  return undefined;
}

// ---------------------------------------------------------------- modern server

const metaRequired = check(modernServer, {
  id: 'client.meta-required',
  title: 'every request names its protocol version and client capabilities in params._meta',
  requirements: ['MT-01', 'VN-01'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge({ received }) {
    const reqs = requestsOf(received);
    if (reqs.length === 0) return untestable('the client sent no request to the modern server');
    const bad = reqs.filter((r) => {
      const meta = modernMetaOf((r.message as Msg).params);
      return !meta || meta[META_PROTOCOL_VERSION] !== '2026-07-28' || !isObj(meta[META_CLIENT_CAPABILITIES]);
    });
    if (bad.length) return violated(`${bad.length} of ${reqs.length} requests lack _meta protocolVersion 2026-07-28 or clientCapabilities; first: ${String((bad[0].message as Msg).method)}`, bad.slice(0, 3).map((r) => ev('request without the required _meta', r)));
    return holds(`${reqs.length} requests, each with protocolVersion and clientCapabilities in _meta`);
  },
});

const metaClientInfo = check(modernServer, {
  id: 'client.meta-client-info',
  title: 'every request names the client (io.modelcontextprotocol/clientInfo with name and version)',
  requirements: ['MT-03'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge({ received }) {
    const reqs = requestsOf(received).filter((r) => modernMetaOf((r.message as Msg).params));
    if (reqs.length === 0) return untestable('the client sent no modern request');
    const bad = reqs.filter((r) => {
      const info = modernMetaOf((r.message as Msg).params)![META_CLIENT_INFO];
      return !isObj(info) || typeof info.name !== 'string' || typeof info.version !== 'string';
    });
    if (bad.length) return violated(`${bad.length} of ${reqs.length} requests carry no clientInfo with name and version`, bad.slice(0, 3).map((r) => ev('request without clientInfo', r)));
    return holds(`${reqs.length} requests, each with clientInfo`);
  },
});

const staysModern = check(modernServer, {
  id: 'client.stays-modern',
  title: 'after a DiscoverResult the client speaks 2026-07-28 and does not fall back to initialize',
  requirements: ['ED-01'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC_CLIENT.versioning26,
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
  spec: SPEC_CLIENT.stdio26,
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
  spec: SPEC_CLIENT.versioning26,
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
  spec: SPEC_CLIENT.http26,
  judge: (o) => judgeFallback(o, 'with HTTP 400 and -32000 (no modern error)'),
});

const eraCached = check(legacyServer, {
  id: 'client.era-cached',
  title: 'once a legacy server made the client fall back to initialize, the client does not probe that server with 2026-07-28 requests again',
  requirements: ['ED-05'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC_CLIENT.versioning26,
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
  spec: SPEC_CLIENT.lifecycle25,
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
  spec: SPEC_CLIENT.lifecycle25,
  judge(o) {
    const inits = o.received.filter((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (inits.length === 0) return untestable('the client never got an initialize result');
    for (const init of inits) {
      const early = o.received.filter((r) => r.seq > init.seq && r.seq < init.replySeq! && r.connection === init.connection && r.httpMethod !== 'DELETE' && r.httpMethod !== 'GET' && !(isObj(r.message) && r.message.method === 'ping'));
      if (early.length) return violated(`the client sent ${early.length} message(s) while its initialize was unanswered; first: ${String((early[0].message as Msg)?.method ?? 'a body')}`, [ev('initialize', init), ...early.slice(0, 3).map((r) => ev('sent before the initialize result', r))]);
    }
    return holds(`nothing but ping was sent before ${inits.length} initialize result(s)`);
  },
});

const sessionId = check(legacyServer, {
  id: 'client.session-id',
  title: 'over HTTP the client echoes the Mcp-Session-Id from the initialize response on every later request',
  requirements: ['HL-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.transports25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('no legacy session was established (no initialize result)');
    // A later initialize starts a new session (mcp-remote's proxy tests the server with one session, then
    // opens its own): it carries no session id, as HL-07 has a client start a new session.
    const later = o.received.filter((r) => r.seq > init.replySeq! && !(isRequest(r.message) && r.message.method === 'initialize'));
    if (later.length === 0) return untestable('the client sent nothing after the initialize result');
    const bad = later.filter((r) => r.headers?.['mcp-session-id'] !== SESSION_ID);
    if (bad.length) return violated(`${bad.length} of ${later.length} later HTTP requests lack Mcp-Session-Id: ${SESSION_ID}`, bad.slice(0, 3).map((r) => ev(`${r.httpMethod ?? 'POST'} without the session id`, r, { expected: SESSION_ID, actual: r.headers?.['mcp-session-id'] ?? '(absent)' })));
    return holds(`${later.length} later requests, each with the session id`);
  },
});

const sessionDelete = check(legacyServer, {
  id: 'client.session-delete',
  title: 'over HTTP the client ends its session with DELETE (carrying the session id) when it is done',
  requirements: ['HL-07'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.transports25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('no legacy session was established (no initialize result)');
    if (o.exit.timedOut || crashOf(o.exit)) return untestable(`the client did not end on its own (${describeExit(o.exit)})`);
    const del = o.received.find((r) => r.httpMethod === 'DELETE' && r.headers?.['mcp-session-id'] === SESSION_ID);
    if (!del) return violated(`the client ${describeExit(o.exit)} without sending DELETE for its session`, [ev('initialize', init)]);
    return holds('the client sent DELETE with its session id');
  },
});

const serverRequests = check(legacyServer, {
  id: 'client.server-requests',
  title: 'the client answers the server\'s ping (empty result) and the requests it declared capabilities for, with valid results or errors',
  requirements: ['JR-10', 'LC-10', 'JR-04'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.lifecycle25,
  judge(o) {
    const declared = o.log.serverRequests.filter((r) => r.declared);
    if (declared.length === 0) return untestable('the client sent no request after notifications/initialized, so the server had no stream to ask it on');
    const version = (() => {
      const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize');
      const v = isObj(init?.reply) && isObj(init.reply.result) ? init.reply.result.protocolVersion : undefined;
      return v === '2025-06-18' ? '2025-06-18' : '2025-11-25';
    })();
    const doc = loadSchema(version);
    const index = messages(version).index;
    const problems: Evidence[] = [];
    let answered = 0;
    for (const asked of declared) {
      const reply = o.received.find((r) => isResponse(r.message) && r.message.id === asked.id);
      if (!reply) {
        problems.push({ what: `${asked.method} (id ${asked.id}) was never answered`, expected: 'a response' });
        continue;
      }
      answered++;
      const m = reply.message as Msg;
      if (!doc.validator('JSONRPCMessage')(m)) {
        problems.push(ev(`the answer to ${asked.method} is not a valid JSON-RPC response`, reply));
        continue;
      }
      if ('error' in m) {
        if (asked.method === 'ping') problems.push(ev('ping was answered with an error', reply));
        continue;
      }
      const def = asked.method === 'ping' ? 'EmptyResult' : index.get(asked.method)?.resultDefinition;
      if (def && isObj(m.result) && !doc.validator(def)(m.result)) problems.push(ev(`the ${asked.method} result is not a valid ${def}`, reply));
      if (asked.method === 'ping' && isObj(m.result) && Object.keys(m.result).some((k) => k !== '_meta')) problems.push(ev('ping was answered with a non-empty result', reply));
    }
    if (problems.length) return violated(`${problems.length} of ${declared.length} server requests answered wrongly or not at all; first: ${problems[0].what}`, problems.slice(0, 4));
    return holds(`${answered} server requests (${declared.map((r) => r.method).join(', ')}) answered validly`);
  },
});

const undeclaredRequest = check(legacyServer, {
  id: 'client.undeclared-request',
  title: 'a server request for a capability the client did not declare is answered with an error, not a result',
  requirements: ['LC-07', 'JR-10'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.lifecycle25,
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
  spec: SPEC_CLIENT.versioning26,
  judge(o) {
    if (o.log.refused.length === 0) return untestable('the client sent no modern request, so nothing was refused');
    const first = o.log.refused[0];
    const at = o.received.findIndex((r) => isRequest(r.message) && r.message.id === first.id);
    const after = o.received.slice(at + 1).filter((r) => isRequest(r.message) && r.message.method !== 'ping');
    const refusedAgain = after.filter((r) => modernMetaOf((r.message as Msg).params)?.[META_PROTOCOL_VERSION] === first.version);
    if (refusedAgain.length) return violated(`after -32022 the client sent ${refusedAgain.length} more request(s) with the refused version ${String(first.version)}`, refusedAgain.slice(0, 3).map((r) => ev('request repeating the refused version', r, { expected: first.supported })));
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
  spec: SPEC_CLIENT.lifecycle25,
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
  spec: SPEC_CLIENT.lifecycle25,
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

// ---------------------------------------------------------------- input_required (MRTR)

interface Retry {
  round: Round;
  retry?: Received;
}

/** Each input_required round with the client's retry: the next request of the same method and target. */
function retries(o: { received: Received[]; rounds: Round[] }): Retry[] {
  return o.rounds.map((round) => {
    const retry = o.received.find((r) => r.seq > round.seq && isRequest(r.message) && r.message.method === round.method && targetOf(r.message.params) === round.target);
    return { round, retry };
  });
}

const paramsOf = (r: Received): Msg => (isObj((r.message as Msg).params) ? ((r.message as Msg).params as Msg) : {});

const mrtrFulfils = check(inputRequired, {
  id: 'client.mrtr-fulfils',
  title: 'the retry after input_required carries inputResponses for exactly the inputRequests, each a valid result of its kind',
  requirements: ['IR-05', 'IR-07'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { anyCapability: ['elicitation', 'sampling', 'roots'] },
  spec: SPEC_CLIENT.mrtr26,
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
  spec: SPEC_CLIENT.mrtr26,
  judge(o) {
    const done = retries(o).filter((x) => x.retry);
    if (done.length === 0) return untestable(o.rounds.length ? 'the client never retried after input_required' : 'the client called none of tools/call, prompts/get, resources/read');
    const bad = done.filter((x) => paramsOf(x.retry!).requestState !== x.round.requestState);
    if (bad.length) return violated(`${bad.length} of ${done.length} retries do not echo requestState exactly`, bad.slice(0, 3).map((x) => ev(`the ${x.round.method} retry (round ${x.round.round})`, x.retry!, { pointer: '/params/requestState', expected: x.round.requestState, actual: paramsOf(x.retry!).requestState ?? '(absent)' })));
    return holds(`${done.length} retries (${Math.max(...done.map((x) => x.round.round))} round(s) deep), each echoing requestState exactly`);
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
  spec: SPEC_CLIENT.mrtr26,
  judge(o) {
    const done = retries(o).filter((x) => x.retry);
    if (done.length === 0) return untestable(o.rounds.length ? 'the client never retried after input_required' : 'the client called none of tools/call, prompts/get, resources/read');
    const bad: Evidence[] = [];
    for (const { round, retry } of done) {
      const original = o.received.find((r) => r.seq === round.seq)!;
      if (JSON.stringify((retry!.message as Msg).id) === JSON.stringify(round.id)) bad.push(ev(`the ${round.method} retry reuses id ${JSON.stringify(round.id)}`, retry!));
      else if (stripRetry(paramsOf(retry!)) !== stripRetry(paramsOf(original))) bad.push(ev(`the ${round.method} retry changes the params`, retry!, { expected: JSON.parse(stripRetry(paramsOf(original))) }));
    }
    if (bad.length) return violated(`${bad.length} of ${done.length} retries are not new requests with the same params; first: ${bad[0].what}`, bad.slice(0, 3));
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
  spec: SPEC_CLIENT.mrtr26,
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
    if (bad.length) return violated(`${bad.length} request(s) carry MRTR fields that do not belong to them; first: ${bad[0].what}`, bad.slice(0, 3));
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
  spec: SPEC_CLIENT.basic26,
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
  spec: SPEC_CLIENT.basic26,
  judge(o) {
    if (o.unknown.length === 0) return untestable('the client called none of tools/call, prompts/get, resources/read');
    const crashed = endedBadly(o, 'on a result with an unknown resultType');
    if (crashed) return crashed;
    const acted = o.received.filter((r) => isRequest(r.message) && paramsOf(r).requestState === UNKNOWN_STATE);
    if (acted.length) return violated('the client retried with the requestState of a result whose resultType it cannot know', acted.slice(0, 2).map((r) => ev('retry acting on an unknown resultType', r)));
    return holds(`${o.unknown.length} unknown-resultType result(s), none acted on (${describeExit(o.exit)})`);
  },
});

// ---------------------------------------------------------------- near-valid answers, SSE answers

const nearValidSurvives = check(nearValidAnswers, {
  id: 'client.near-valid-survives',
  title: 'a client served a result that breaks one schema constraint neither crashes nor hangs, nor passes the broken data on in an invalid request',
  requirements: ['JR-04', 'EX-05'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge(o, ctx) {
    if (o.served.length === 0) return untestable('the client listed nothing (tools, prompts, resources), so no near-valid result was served');
    const labels = o.served.map((s) => `${s.method}: ${s.label.keyword} at ${s.label.path || '/'}`);
    const crash = crashOf(o.exit);
    if (crash) return violated(`the client crashed (${crash}) after near-valid results (${labels.join('; ')})`, [{ what: 'client exit', actual: { exitCode: o.exit.exitCode, signal: o.exit.signal, stderrTail: o.exit.stderrTail.slice(-600) }, expected: labels }]);
    if (o.exit.timedOut) return violated(`the client hung after near-valid results (${labels.join('; ')})`, [{ what: 'client still running at the timeout', expected: labels }]);
    // Acting on them as valid: a request after the first near-valid answer that is itself invalid (it passed a broken value on).
    const first = Math.min(...o.served.map((x) => x.seq));
    const passedOn = o.received.filter((r) => r.seq > first && isRequest(r.message)).map((r) => schemaProblem({ seq: r.seq, t: 0, dir: 'in', channel: o.transport, raw: '', message: r.message }, ctx.version)).filter((p): p is Evidence => p !== undefined);
    if (passedOn.length) return violated(`after near-valid results (${labels.join('; ')}) the client sent ${passedOn.length} invalid request(s): it acted on broken data as valid; first: ${passedOn[0].what} (${passedOn[0].pointer || '/'}: ${String(passedOn[0].expected)})`, passedOn.slice(0, 3));
    return holds(`${o.served.length} near-valid result(s) (${labels.join('; ')}); the client ${describeExit(o.exit)}`);
  },
});

const sseResponses = check(sseAnswers, {
  id: 'client.sse-responses',
  title: 'the client handles SSE answers (with a priming event and a comment line) as it does JSON ones: the same requests, the same exit',
  requirements: ['HL-03', 'HM-03', 'SB-13'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(o) {
    if (!o.plain) return untestable('no run against the plain server to compare with');
    const answered = o.received.filter((r) => r.replySeq !== undefined).length;
    if (answered === 0) return untestable('no request was answered');
    const crashed = endedBadly(o, 'on SSE answers');
    if (crashed) return crashed;
    const methods = o.received.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : undefined)).filter((m): m is string => m !== undefined);
    const same = JSON.stringify(methods) === JSON.stringify(o.plain.methods);
    if (o.exit.exitCode !== o.plain.exit.exitCode) return violated(`the client ${describeExit(o.exit)} on SSE answers but exited with code ${o.plain.exit.exitCode} on JSON ones`, [{ what: 'methods (SSE run)', actual: methods, expected: o.plain.methods }, { what: 'stderr', actual: o.exit.stderrTail.slice(-400) }]);
    if (!same && methods.length < o.plain.methods.length) return violated(`the client stopped after ${methods.length} messages on SSE answers (${o.plain.methods.length} on JSON ones)`, [{ what: 'methods', actual: methods, expected: o.plain.methods }]);
    return holds(`${answered} SSE answers handled; the client ${describeExit(o.exit)} as on JSON answers`);
  },
});

/** A clock tick of slack: the server's close and the GET's arrival are read from Date.now(). */
const EARLY_TOLERANCE_MS = 20;

/** Each polled answer, and the client's GET that resumed it (if any). */
function resumptions(o: ClientObs): { polled: Received; resume?: Received }[] {
  return o.received
    .filter((r) => r.polled)
    .map((polled) => ({ polled, resume: o.received.find((r) => r.httpMethod === 'GET' && r.headers?.['last-event-id'] === polled.polled!.eventId) }));
}

const ssePollResumes = check(pollingServer, {
  id: 'client.sse-poll-resumes',
  title: 'the client resumes an SSE answer the server closed before its response: GET with Last-Event-ID naming the last event',
  requirements: ['HL-04'],
  level: 'SHOULD',
  versions: ['2025-11-25'],
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.transports25,
  judge(o) {
    const all = resumptions(o);
    if (all.length === 0) return untestable('the client sent no request after initialize in a 2025-11-25 session, so no answer was polled');
    const lost = all.filter((x) => !x.resume);
    if (lost.length) {
      return violated(`${lost.length} of ${all.length} answers whose stream closed early were never resumed; the client ${describeExit(o.exit)}`,
        lost.slice(0, 3).map((x) => ev(`request whose answer stream closed after event ${x.polled.polled!.eventId}`, x.polled, { expected: `GET with Last-Event-ID: ${x.polled.polled!.eventId}`, actual: 'no such GET' })));
    }
    return holds(`${all.length} answers closed early, each resumed with GET and Last-Event-ID`);
  },
});

const sseRetryRespected = check(pollingServer, {
  id: 'client.sse-retry-respected',
  title: 'the client waits the retry the server named before it resumes a closed SSE stream',
  requirements: ['HL-04'],
  level: 'MUST',
  versions: ['2025-11-25'],
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.transports25,
  judge(o) {
    const resumed = resumptions(o).filter((x) => x.resume?.at !== undefined);
    if (resumed.length === 0) return untestable('the client resumed no closed SSE stream');
    const waited = resumed.map((x) => ({ ...x, ms: x.resume!.at! - x.polled.polled!.closedAt, retry: x.polled.polled!.retryMs }));
    const early = waited.filter((x) => x.ms < x.retry - EARLY_TOLERANCE_MS);
    if (early.length) {
      return violated(`${early.length} of ${waited.length} resumptions came before the retry delay: ${early.map((x) => `${x.ms} ms of ${x.retry} ms`).join(', ')}`,
        early.slice(0, 3).map((x) => ev(`GET resuming after event ${x.polled.polled!.eventId}`, x.resume!, { expected: `no earlier than ${x.retry} ms after the stream closed`, actual: `${x.ms} ms after` })));
    }
    return holds(`${waited.length} resumptions, each after the retry delay (${waited.map((x) => `${x.ms} ms`).join(', ')} of ${waited[0].retry} ms)`);
  },
});

const sameId = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const reissuesBrokenRequest = check(brokenStreamServer, {
  id: 'client.reissues-broken-request',
  title: 'a request whose answer stream broke before the answer is sent again as a new request with a new id',
  requirements: ['HM-05'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.changelog26,
  judge(o) {
    const broken = o.received.filter((r) => r.broken && isRequest(r.message));
    if (broken.length === 0) return untestable('the client sent no request after server/discover, so no answer stream was broken');
    const problems: Evidence[] = [];
    const reissued: string[] = [];
    for (const b of broken) {
      const m = b.message as Msg & { method: string };
      const target = targetOf(m.params);
      const what = `${m.method}${target ? ` ${target}` : ''} (id ${JSON.stringify(m.id)})`;
      const again = o.received.filter((r) => r.seq > b.seq && isRequest(r.message) && r.message.method === m.method && targetOf(r.message.params) === target);
      const fresh = again.find((r) => !sameId((r.message as Msg).id, m.id));
      if (fresh) reissued.push(`${what} as id ${JSON.stringify((fresh.message as Msg).id)}`);
      else if (again.length) problems.push(ev(`${what} sent again after its stream broke, with the same id`, again[0], { expected: 'a new request id', seq: [b.seq, again[0].seq] }));
      else problems.push(ev(`${what}: its answer stream closed before the answer`, b, { expected: `${m.method} sent again with a new id`, actual: `never sent again; the client ${describeExit(o.exit)}` }));
    }
    if (problems.length) return violated(`${problems.length} of ${broken.length} requests whose stream broke were not re-issued with a new id: ${problems[0].what}`, problems.slice(0, 3));
    return holds(`re-issued ${reissued.join(', ')}`);
  },
});

const restartsDeadServer = check(dyingServer, {
  id: 'client.restarts-dead-server',
  title: 'a client whose stdio server process exited unexpectedly starts it again',
  requirements: ['IO-06'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC_CLIENT.stdio26,
  judge(o) {
    const death = o.received.find((r) => r.died);
    if (!death) return untestable('the client sent no request after server/discover, so the server never died');
    const m = death.message as Msg;
    const what = `${String(m.method)} (id ${JSON.stringify(m.id)})`;
    const crashed = endedBadly(o, 'after its server exited');
    if (crashed) return crashed;
    // A restart is a server process whose first message came after the death (not one already running).
    const firstSeq = new Map<number, number>();
    for (const r of o.received) if (!firstSeq.has(r.connection)) firstSeq.set(r.connection, r.seq);
    const later = o.received.filter((r) => r.connection !== death.connection && firstSeq.get(r.connection)! > death.seq);
    if (later.length === 0) {
      return violated(`the server process exited on ${what}; the client never started it again (it ${describeExit(o.exit)})`,
        [ev(`${what}: the server process exited instead of answering`, death, { expected: 'a new server process', actual: `none; the client ${describeExit(o.exit)}` })]);
    }
    const retried = later.find((r) => isRequest(r.message) && r.message.method === m.method && targetOf(r.message.params) === targetOf(m.params));
    return holds(`the server process exited on ${what}; the client started it again (process ${later[0].connection})${retried ? ` and sent ${String(m.method)} again there` : ''}`,
      [ev('the request the server died on', death), ev('the first message to the new process', later[0])]);
  },
});

const stderrIgnored = check(stderrLogs, {
  id: 'client.stderr-not-error',
  title: 'a server that logs to stderr is served as one that does not: the same requests, the same exit',
  requirements: ['IO-03'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC_CLIENT.stdio26,
  judge(o) {
    if (!o.plain) return untestable('no run against the plain server to compare with');
    const crashed = endedBadly(o, 'beside a server logging to stderr');
    if (crashed) return crashed;
    const methods = o.received.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : undefined)).filter((m): m is string => m !== undefined);
    const missing = [...new Set(o.plain.methods)].filter((m) => !methods.includes(m));
    if (o.exit.exitCode !== o.plain.exit.exitCode || o.exit.timedOut !== o.plain.exit.timedOut) {
      return violated(`the client ${describeExit(o.exit)} when the server logged to stderr, but ${describeExit(o.plain.exit)} when it did not`, [{ what: 'methods (server logging to stderr)', actual: methods, expected: o.plain.methods }, { what: 'client stderr', actual: o.exit.stderrTail.slice(-400) }]);
    }
    if (missing.length) return violated(`the client never sent ${missing.join(', ')} when the server logged to stderr (it did without the logs)`, [{ what: 'methods', actual: methods, expected: o.plain.methods }]);
    return holds(`${methods.length} messages and the same exit (${describeExit(o.exit)}) with the server logging to stderr`);
  },
});

// ---------------------------------------------------------------- caching

const cacheFresh = check(cachingServer, {
  id: 'client.cache-fresh',
  title: 'a list still fresh by its ttlMs is not fetched again unless a list_changed notification invalidated it',
  requirements: ['CA-04', 'CA-10'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  spec: SPEC.caching26,
  judge(o) {
    if (o.lists.length === 0) return untestable('the client did not list tools');
    const again = o.lists.slice(1);
    if (again.length === 0) return untestable(`the client listed tools once${o.subscribed ? ' (and was told the list changed)' : ''}: nothing shows whether it caches (which cached answer it reuses for which request, CA-05, no server can see)`);
    const stale = again.filter((l) => o.invalidatedAt === undefined || l.at < o.invalidatedAt);
    if (stale.length) return violated(`the client fetched tools/list ${stale.length} more time(s) while the first answer was fresh (ttlMs ${LONG_TTL_MS}) and nothing had invalidated it`, stale.slice(0, 3).map((l) => ({ what: 'tools/list refetched inside its TTL', seq: [o.lists[0].seq, l.seq], expected: `the cached list (fresh for ${LONG_TTL_MS} ms)` })));
    return holds(`the client fetched tools/list again only after notifications/tools/list_changed invalidated it (${again.length} time(s))`);
  },
});

// ---------------------------------------------------------------- tasks (SEP-2663 extension)

// The tasks extension (SEP-2663) has no page in the core specification: its rules are cited by requirement ID.
const SPEC_TASKS = SPEC.basic26;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const taskRequests = (o: ClientObs, t: TaskLog, method: string) => o.received.filter((r) => isRequest(r.message) && r.message.method === method && paramsOf(r).taskId === t.taskId);

const taskPolls = check(tasksServer, {
  id: 'client.task-polls',
  title: 'after CreateTaskResult the client polls tasks/get until a terminal status, and not after it',
  requirements: ['TB-09', 'TB-04'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION] },
  spec: SPEC_TASKS,
  judge(o) {
    if (o.tasks.length === 0) return untestable('the client called no tool while declaring the tasks extension, so no task was created');
    const bad: Evidence[] = [];
    for (const t of o.tasks) {
      const terminal = t.polls.findIndex((p) => TERMINAL.has(p.status));
      const cancelled = taskRequests(o, t, 'tasks/cancel').length > 0;
      if (terminal < 0 && !cancelled && !o.exit.timedOut) bad.push({ what: `task ${t.taskId}: the client stopped polling at status ${t.polls.at(-1)?.status ?? 'working (never polled)'} without cancelling`, actual: t.polls.map((p) => p.status) });
      if (terminal >= 0 && t.polls.length > terminal + 1) bad.push({ what: `task ${t.taskId}: ${t.polls.length - terminal - 1} tasks/get after the terminal status ${t.polls[terminal].status}`, actual: t.polls.map((p) => p.status), seq: t.polls.slice(terminal + 1).map((p) => p.seq) });
    }
    if (bad.length) return violated(`${bad.length} task(s) polled wrongly; first: ${bad[0].what}`, bad.slice(0, 3));
    return holds(`${o.tasks.length} task(s) polled to a terminal status (${o.tasks.map((t) => t.polls.map((p) => p.status).join(' > ')).join('; ')}), none after it`);
  },
});

const taskPollInterval = check(tasksServer, {
  id: 'client.task-poll-interval',
  title: 'the client waits pollIntervalMs between tasks/get polls of one task',
  requirements: ['TB-09'],
  level: 'SHOULD',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION] },
  spec: SPEC_TASKS,
  judge(o) {
    const pairs = o.tasks.flatMap((t) => t.polls.slice(1).map((p, i) => ({ t, gap: p.at - t.polls[i].at, seq: [t.polls[i].seq, p.seq] })));
    if (pairs.length === 0) return untestable(o.tasks.length ? 'no task was polled twice' : 'no task was created');
    // Only polling faster than asked is judged (timers may fire a few ms early); slower is always fine.
    const fast = pairs.filter((p) => p.gap < p.t.pollIntervalMs * 0.9 - 5);
    if (fast.length) return violated(`${fast.length} of ${pairs.length} polls came sooner than pollIntervalMs ${fast[0].t.pollIntervalMs} ms (first gap ${fast[0].gap} ms)`, fast.slice(0, 3).map((p) => ({ what: `tasks/get of ${p.t.taskId} ${p.gap} ms after the previous one`, expected: `>= ${p.t.pollIntervalMs} ms`, seq: p.seq })));
    return holds(`${pairs.length} poll gaps, each at least pollIntervalMs (shortest ${Math.min(...pairs.map((p) => p.gap))} ms)`);
  },
});

const taskInput = check(tasksServer, {
  id: 'client.task-input',
  title: 'an input_required task is answered with tasks/update carrying inputResponses for exactly its inputRequests',
  requirements: ['TB-07', 'TB-11', 'IR-05'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { extensions: [TASKS_EXTENSION], anyCapability: ['elicitation', 'sampling', 'roots'] },
  spec: SPEC_TASKS,
  judge(o) {
    const asked = o.tasks.filter((t) => t.inputKeys.length && t.polls.some((p) => p.status === 'input_required'));
    if (asked.length === 0) return untestable('no polled task reached input_required (no task, or the client declared no input capability)');
    const doc = loadSchema('2026-07-28');
    const resultDef: Record<string, string> = { name: 'ElicitResult', draft: 'CreateMessageResult', roots: 'ListRootsResult' };
    const bad: Evidence[] = [];
    for (const t of asked) {
      const update = taskRequests(o, t, 'tasks/update')[0];
      if (!update) {
        bad.push({ what: `task ${t.taskId} asked for input (${t.inputKeys.join(', ')}) and got no tasks/update`, actual: t.polls.map((p) => p.status) });
        continue;
      }
      const responses = paramsOf(update).inputResponses;
      const keys = isObj(responses) ? Object.keys(responses).sort() : [];
      if (JSON.stringify(keys) !== JSON.stringify([...t.inputKeys].sort())) bad.push(ev(`tasks/update answers keys ${keys.join(', ') || '(none)'}`, update, { expected: t.inputKeys }));
      else for (const k of keys) if (!doc.validator(resultDef[k])((responses as Msg)[k])) bad.push(ev(`inputResponses.${k} is not a valid ${resultDef[k]}`, update, { pointer: `/params/inputResponses/${k}` }));
    }
    if (bad.length) return violated(`${bad.length} problem(s) answering input_required tasks; first: ${bad[0].what}`, bad.slice(0, 3));
    return holds(`${asked.length} input_required task(s) answered with tasks/update`);
  },
});

const legacyTaskPolls = check(legacyTasksServer, {
  id: 'client.legacy-task-polls',
  title: '2025-11-25 tasks: the client polls tasks/get no faster than pollInterval until a terminal status (or waits in tasks/result), then fetches the result with tasks/result',
  requirements: ['TA-09', 'TA-10', 'TA-11'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.lifecycle25,
  judge(o) {
    if (o.tasks.length === 0) return untestable('the client did not task-augment a tools/call although the server declared tasks.requests.tools.call');
    const bad: Evidence[] = [];
    for (const t of o.tasks) {
      const got = o.received.filter((r) => isRequest(r.message) && r.message.method === 'tasks/result' && paramsOf(r).taskId === t.taskId);
      const gets = t.polls.filter((p) => o.received.some((r) => r.seq === p.seq && isRequest(r.message) && r.message.method === 'tasks/get'));
      for (let i = 1; i < gets.length; i++) {
        const gap = gets[i].at - gets[i - 1].at;
        if (gap < t.pollInterval * 0.9 - 5) bad.push({ what: `task ${t.taskId}: tasks/get ${gap} ms after the previous one (pollInterval ${t.pollInterval} ms)`, seq: [gets[i - 1].seq, gets[i].seq] });
      }
      const terminal = gets.findIndex((p) => TERMINAL.has(p.status));
      if (terminal >= 0 && gets.length > terminal + 1) bad.push({ what: `task ${t.taskId}: tasks/get after the terminal status`, seq: gets.slice(terminal + 1).map((p) => p.seq) });
      if (got.length === 0 && !o.exit.timedOut) bad.push({ what: `task ${t.taskId}: the client never fetched the result with tasks/result`, actual: t.polls.map((p) => p.status) });
    }
    if (bad.length) return violated(`${bad.length} problem(s) following 2025-11-25 tasks; first: ${bad[0].what}`, bad.slice(0, 3));
    return holds(`${o.tasks.length} task(s) followed to their result (${o.tasks.map((t) => t.polls.map((p) => p.status).join(' > ')).join('; ')})`);
  },
});

const legacyTaskUnasked = check(legacyServer, {
  id: 'client.legacy-task-unasked',
  title: '2025-11-25 tasks: the client does not task-augment tools/call when the server did not declare tasks.requests.tools.call',
  requirements: ['TA-02', 'TA-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.lifecycle25,
  judge(o) {
    const calls = o.received.filter((r) => isRequest(r.message) && r.message.method === 'tools/call' && !modernMetaOf(r.message.params));
    if (calls.length === 0) return untestable('the client called no tool on the legacy server');
    const augmented = calls.filter((r) => 'task' in paramsOf(r));
    if (augmented.length) return violated(`${augmented.length} of ${calls.length} tools/call requests are task-augmented although the server declared no tasks capability`, augmented.slice(0, 2).map((r) => ev('task-augmented tools/call', r)));
    return holds(`${calls.length} tools/call request(s), none task-augmented`);
  },
});

// ---------------------------------------------------------------- oracles over every client message

type RunObs = RunObservations;

/** What the client sent in the run (every scenario), in order. */
const clientMessages = (obs: RunObs): WireEvent[] => obs.events.filter((e) => e.dir === 'in' && (e.kind === 'message' || Array.isArray(e.message)));
/** Single messages the client sent outside the near-valid scenario: what it sends after near-valid answers may carry their broken values (client.near-valid-survives judges that). */
const judgedClientMessages = (obs: RunObs): WireEvent[] => clientMessages(obs).filter((e) => !Array.isArray(e.message) && e.source !== NEAR_VALID_SCENARIO);

/** The schema a client message is judged by: modern _meta names 2026-07-28; otherwise the legacy version of the run. */
function schemaVersionOf(m: unknown, run: string): string {
  const params = isObj(m) ? m.params : undefined;
  if (modernMetaOf(params)) return '2026-07-28';
  return LEGACY.includes(run as never) ? run : '2025-11-25';
}

const TASK_DEFS: Record<string, string> = { 'tasks/get': 'GetTaskRequest', 'tasks/update': 'UpdateTaskRequest', 'tasks/cancel': 'CancelTaskRequest' };
const NEAR_VALID_SCENARIO = 'client-near-valid';

/** Why one client message is invalid for the schema of its version (the tasks extension's for tasks/*), or undefined. */
export function schemaProblem(e: WireEvent, runVersion: string): Evidence | undefined {
  const problems: Evidence[] = [];
  const key = schemaVersionOf(e.message, runVersion);
  const doc = loadSchema(key);
  const m = e.message as Msg;
  let def = 'JSONRPCMessage';
  if (key === '2026-07-28' && typeof m.method === 'string' && TASK_DEFS[m.method]) {
    const ext = loadSchema('ext-tasks-draft');
    const vt = ext.validator(TASK_DEFS[m.method]);
    if (!(vt(m) as boolean)) problems.push({ what: `${m.method} is not a valid ${TASK_DEFS[m.method]} (tasks extension)`, actual: clipJson(m, 800), pointer: vt.errors?.[0]?.instancePath, expected: vt.errors?.[0]?.message, seq: [e.seq] });
  } else if (typeof m.method === 'string') {
    const info = messages(key).index.get(m.method);
    if (info && !info.embedded && info.direction !== 'server-to-client') def = info.definition;
  }
  const v = doc.validator(def);
  const valid = (v(m) as boolean) && (def === 'JSONRPCMessage' || (doc.validator('JSONRPCMessage')(m) as boolean));
  if (!valid) {
    const err = v.errors?.[0];
    problems.push({ what: `${String(m.method ?? 'a response')} is not a valid ${def} (${key})`, actual: clipJson(m, 800), pointer: err?.instancePath, expected: err?.message, seq: [e.seq] });
  }
  return problems[0];
}

const clientSchema = oracle({
  id: 'client.schema',
  title: 'every message from the client validates against the client-side JSON Schema of its version',
  requirements: ['JR-01', 'JR-02', 'JR-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge(obs) {
    const msgs = judgedClientMessages(obs);
    if (msgs.length === 0) return untestable('the client sent no message');
    const problems: Evidence[] = [];
    for (const e of msgs) {
      const p = schemaProblem(e, obs.version);
      if (p) problems.push(p);
    }
    if (problems.length) return violated(`${problems.length} of ${msgs.length} client messages are invalid; first: ${problems[0].what} (${problems[0].pointer || '/'}: ${String(problems[0].expected)})`, problems.slice(0, 5));
    // The Rust SDK's client message schema, beside the official one: where they disagree it is a note, never a failure.
    const notes = rmcpDisagreements(msgs.filter((e) => schemaVersionOf(e.message, obs.version) === '2026-07-28'));
    const note = notes.length ? `; note: the Rust SDK's client message schema rejects ${notes.length} of them (first: ${notes[0].what}), a disagreement with the official schema, not a failure` : '';
    return holds(`${msgs.length} client messages valid against their version's schema${note}`, notes.slice(0, 3));
  },
});

/** Modern messages the official schema accepts but the Rust SDK's client message schema (rmcp) rejects. */
function rmcpDisagreements(events: WireEvent[]): Evidence[] {
  if (events.length === 0) return [];
  const doc = loadSchema('rmcp-client-2026-07-28');
  const v = doc.validatorForNodes([doc.root]);
  const out: Evidence[] = [];
  for (const e of events) {
    if (v(e.message) as boolean) continue;
    const err = v.errors?.[0];
    out.push({ what: `${String((e.message as Msg).method ?? 'a response')} (rmcp: ${err?.instancePath || '/'} ${err?.message ?? ''})`, actual: clipJson(e.message, 400), seq: [e.seq] });
  }
  return out;
}

const requestIds = oracle({
  id: 'client.request-ids',
  title: 'request ids are strings or integers, never reused while in flight (2026-07-28) or within a session (earlier versions)',
  requirements: ['JR-02', 'JR-03', 'JR-03b'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge(obs) {
    // A request refused at the HTTP layer (401: no token yet) never reached the server: sent again with its id, it is a retry, not a reuse.
    const reqs = clientMessages(obs).filter((e) => isRequest(e.message) && e.data?.refused === undefined);
    if (reqs.length === 0) return untestable('the client sent no request');
    const bad: Evidence[] = [];
    // Connections: stdio relay connections are not visible in events; a source (scenario) plus era is the session bound.
    const answeredAt = new Map<string, number>();
    for (const e of obs.events) if (e.dir === 'out' && isObj(e.message) && 'id' in e.message && !('method' in e.message)) answeredAt.set(`${e.source}|${JSON.stringify(e.message.id)}|${e.seq}`, e.seq);
    const seen = new Map<string, WireEvent[]>();
    // A scenario may start the client more than once (a baseline run first): each run is its own client.
    const exits = obs.events.filter((x) => x.note === 'client-exit');
    const runOf = (e: WireEvent) => exits.filter((x) => x.source === e.source && x.seq < e.seq).length;
    for (const e of reqs) {
      const m = e.message as Msg;
      if (!(typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)))) {
        bad.push({ what: `${String(m.method)} has id ${JSON.stringify(m.id)}`, actual: clipJson(m, 400), seq: [e.seq] });
        continue;
      }
      // One session: a stdio server process the client started, or an HTTP session id (or none).
      const session = e.channel === 'http' ? (e.http?.headers['mcp-session-id'] ?? '') : String(e.data?.connection ?? '');
      const key = `${e.source}|${runOf(e)}|${session}|${modernMetaOf(m.params) ? 'modern' : 'legacy'}|${JSON.stringify(m.id)}`;
      const earlier = seen.get(key) ?? [];
      for (const prev of earlier) {
        const legacy = !modernMetaOf(m.params) && m.method !== 'initialize';
        const answered = obs.events.some((x) => x.dir === 'out' && x.source === e.source && x.seq > prev.seq && x.seq < e.seq && isObj(x.message) && JSON.stringify(x.message.id) === JSON.stringify(m.id) && !('method' in x.message));
        if (legacy || !answered) {
          bad.push({ what: `${String(m.method)} reuses id ${JSON.stringify(m.id)} ${legacy ? 'within the session' : 'while it was still in flight'}`, actual: clipJson(m, 400), seq: [prev.seq, e.seq] });
          break;
        }
      }
      seen.set(key, [...earlier, e]);
    }
    if (bad.length) return violated(`${bad.length} request id problem(s); first: ${bad[0].what}`, bad.slice(0, 4));
    return holds(`${reqs.length} requests, ids well-formed and unique`);
  },
});

/** The session a client message belongs to: its stdio server process, or its HTTP session id (none: ''). */
const sessionOf = (e: WireEvent) => `${e.source}|${e.channel === 'http' ? (e.http?.headers['mcp-session-id'] ?? '') : String(e.data?.connection ?? '')}`;

/** A result that created a task: 2025-11-25 CreateTaskResult ({task}) or 2026-07-28 resultType "task". */
const createsTask = (m: unknown) => isObj(m) && isObj(m.result) && (m.result.resultType === 'task' || isObj(m.result.task));

const cancellations = oracle({
  id: 'client.cancellations',
  title: 'notifications/cancelled names only a request the client itself sent, never initialize, never a task-augmented request (tasks/cancel is for those)',
  requirements: ['CN-01', 'LC-09', 'TA-16', 'TB-13'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.cancellation25,
  judge(obs) {
    const sent = clientMessages(obs).filter((e) => !Array.isArray(e.message));
    const cancels = sent.filter((e) => isNotification(e.message) && e.message.method === 'notifications/cancelled');
    if (cancels.length === 0) return untestable('the client cancelled nothing');
    const bad: Evidence[] = [];
    for (const c of cancels) {
      const params = (c.message as Msg).params;
      const id = isObj(params) ? params.requestId : undefined;
      const what = `notifications/cancelled for ${JSON.stringify(id)}`;
      const req = [...sent].reverse().find((e) => e.seq < c.seq && sessionOf(e) === sessionOf(c) && isRequest(e.message) && sameId(e.message.id, id));
      if (!req) {
        bad.push({ what: `${what}: the client sent no request with that id before`, actual: clipJson(c.message, 400), seq: [c.seq] });
        continue;
      }
      const method = String((req.message as Msg).method);
      if (method === 'initialize') bad.push({ what: `${what}: it cancels initialize`, actual: clipJson(c.message, 400), seq: [req.seq, c.seq] });
      const answer = obs.events.find((x) => x.dir === 'out' && x.source === c.source && x.seq > req.seq && x.seq < c.seq && isResponse(x.message) && sameId(x.message.id, id));
      if (answer && createsTask(answer.message)) bad.push({ what: `${what}: ${method} had created a task, which only tasks/cancel may cancel`, actual: clipJson(c.message, 400), seq: [req.seq, answer.seq, c.seq] });
    }
    if (bad.length) return violated(`${bad.length} of ${cancels.length} cancellations name what they may not; first: ${bad[0].what}`, bad.slice(0, 4));
    return holds(`${cancels.length} cancellation(s), each of a request the client had sent`);
  },
});

const notificationIds = oracle({
  id: 'client.notification-no-id',
  title: 'notifications (notifications/* methods) carry no id',
  requirements: ['JR-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge(obs) {
    const notes = clientMessages(obs).filter((e) => isObj(e.message) && typeof e.message.method === 'string' && e.message.method.startsWith('notifications/'));
    if (notes.length === 0) return untestable('the client sent no notification');
    const bad = notes.filter((e) => 'id' in (e.message as Msg));
    if (bad.length) return violated(`${bad.length} of ${notes.length} notifications carry an id; first: ${String((bad[0].message as Msg).method)}`, bad.slice(0, 3).map((e) => ({ what: 'notification with an id', actual: clipJson(e.message, 400), seq: [e.seq] })));
    return holds(`${notes.length} notifications, none with an id`);
  },
});

const noBatch = oracle({
  id: 'client.no-batch',
  title: 'the client sends one JSON-RPC message per body or line, never a batch array',
  requirements: ['JR-08'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge(obs) {
    const all = obs.events.filter((e) => e.dir === 'in' && e.message !== undefined);
    if (all.length === 0) return untestable('the client sent no message');
    const batches = all.filter((e) => Array.isArray(e.message));
    if (batches.length) return violated(`${batches.length} batch array(s) sent`, batches.slice(0, 2).map((e) => ({ what: 'batch', actual: clipJson(e.message, 400), seq: [e.seq] })));
    return holds(`${all.length} bodies, each a single message`);
  },
});

const metaKeyNames = oracle({
  id: 'client.meta-key-names',
  title: 'every _meta key the client sends follows the key grammar, and every extension it declares has a vendor prefix',
  requirements: ['MT-10', 'MT-11', 'EX-02'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC_CLIENT.basic26,
  judge: (obs) => judgeMetaKeyNames(judgedClientMessages(obs), 'client'),
});

/** The client's HTTP POSTs in the run. */
const posts = (obs: RunObs) => obs.events.filter((e) => e.dir === 'in' && e.channel === 'http' && e.http?.method === 'POST' && isObj(e.message));

const httpAccept = oracle({
  id: 'client.http-accept',
  title: 'every POST accepts both application/json and text/event-stream',
  requirements: ['HL-01', 'HM-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(obs) {
    const ps = posts(obs);
    if (ps.length === 0) return untestable('the client sent no POST');
    const bad = ps.filter((e) => {
      const a = (e.http!.headers.accept ?? '').toLowerCase();
      return !(a.includes('application/json') && a.includes('text/event-stream'));
    });
    if (bad.length) return violated(`${bad.length} of ${ps.length} POSTs do not accept both types; first Accept: ${bad[0].http!.headers.accept ?? '(absent)'}`, bad.slice(0, 3).map((e) => ({ what: `${String((e.message as Msg).method ?? 'response')} POST`, actual: e.http!.headers.accept ?? '(absent)', expected: 'application/json, text/event-stream', seq: [e.seq] })));
    return holds(`${ps.length} POSTs, each accepting both`);
  },
});

const httpProtocolVersion = oracle({
  id: 'client.http-protocol-version',
  title: 'every POST names its protocol version in MCP-Protocol-Version: equal to _meta (2026-07-28) or the negotiated one after initialize',
  requirements: ['HM-06', 'HL-08'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(obs) {
    const negotiated = new Map<string, { version: string; seq: number }>();
    for (const e of obs.events) {
      if (e.dir === 'out' && isObj(e.message) && isObj(e.message.result) && typeof e.message.result.protocolVersion === 'string' && !negotiated.has(String(e.source))) negotiated.set(String(e.source), { version: e.message.result.protocolVersion, seq: e.seq });
    }
    const judged: { e: WireEvent; expected: string }[] = [];
    for (const e of posts(obs)) {
      const m = e.message as Msg;
      const meta = modernMetaOf(m.params);
      if (meta) judged.push({ e, expected: String(meta[META_PROTOCOL_VERSION]) });
      else if (m.method !== 'initialize') {
        const n = negotiated.get(String(e.source));
        if (n && e.seq > n.seq) judged.push({ e, expected: n.version });
      }
    }
    if (judged.length === 0) return untestable('the client sent no modern POST and no POST after an initialize result');
    const bad = judged.filter(({ e, expected }) => e.http!.headers['mcp-protocol-version'] !== expected);
    if (bad.length) return violated(`${bad.length} of ${judged.length} POSTs carry the wrong MCP-Protocol-Version; first: ${bad[0].e.http!.headers['mcp-protocol-version'] ?? '(absent)'} for ${bad[0].expected}`, bad.slice(0, 3).map(({ e, expected }) => ({ what: `${String((e.message as Msg).method ?? 'response')} POST`, expected, actual: e.http!.headers['mcp-protocol-version'] ?? '(absent)', seq: [e.seq] })));
    return holds(`${judged.length} POSTs, each with the right MCP-Protocol-Version`);
  },
});

/** Decode a header value the way servers must before comparing it with the body (HM-09). */
export function decodeHeaderValue(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(v);
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : v;
}

const NAMED_METHODS = [...MRTR_METHODS, 'tasks/get', 'tasks/update', 'tasks/cancel'];
const nameOf = (params: unknown): string => (isObj(params) && typeof params.taskId === 'string' ? params.taskId : targetOf(params));

const modernRequestPosts = (obs: RunObs) => posts(obs).filter((e) => isRequest(e.message) && modernMetaOf((e.message as Msg).params));

const httpMethodHeader = oracle({
  id: 'client.http-method-header',
  title: 'every request POST carries Mcp-Method equal to the body\'s method',
  requirements: ['HM-08'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(obs) {
    const ps = modernRequestPosts(obs);
    if (ps.length === 0) return untestable('the client sent no modern request over HTTP');
    const bad = ps.filter((e) => decodeHeaderValue(e.http!.headers['mcp-method']) !== (e.message as Msg).method);
    if (bad.length) return violated(`${bad.length} of ${ps.length} request POSTs have a missing or wrong Mcp-Method`, bad.slice(0, 3).map((e) => ({ what: `${String((e.message as Msg).method)} POST`, expected: (e.message as Msg).method, actual: e.http!.headers['mcp-method'] ?? '(absent)', seq: [e.seq] })));
    return holds(`${ps.length} request POSTs, each with Mcp-Method`);
  },
});

const httpNameHeader = oracle({
  id: 'client.http-name-header',
  title: 'tools/call, prompts/get, resources/read and tasks/* POSTs carry Mcp-Name equal to params.name, params.uri or params.taskId',
  requirements: ['HM-08', 'HM-09', 'TB-19'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(obs) {
    const ps = modernRequestPosts(obs).filter((e) => NAMED_METHODS.includes(String((e.message as Msg).method)));
    if (ps.length === 0) return untestable('the client called none of tools/call, prompts/get, resources/read, tasks/* over HTTP');
    const bad = ps.filter((e) => decodeHeaderValue(e.http!.headers['mcp-name']) !== nameOf((e.message as Msg).params));
    if (bad.length) return violated(`${bad.length} of ${ps.length} POSTs have a missing or wrong Mcp-Name`, bad.slice(0, 3).map((e) => ({ what: `${String((e.message as Msg).method)} POST`, expected: nameOf((e.message as Msg).params), actual: e.http!.headers['mcp-name'] ?? '(absent)', seq: [e.seq] })));
    return holds(`${ps.length} POSTs, each with Mcp-Name equal to the body`);
  },
});

const TOOL_HEADERS = paramHeaderDeclarations(TOOL.inputSchema).declarations ?? [];

const httpParamHeaders = oracle({
  id: 'client.http-param-headers',
  title: 'tools/call POSTs mirror every x-mcp-header argument into its Mcp-Param-* header (Base64 where not plain) and send none for an absent one',
  requirements: ['HM-10', 'HM-09'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC_CLIENT.http26,
  judge(obs) {
    const calls = modernRequestPosts(obs).filter((e) => (e.message as Msg).method === 'tools/call' && isObj((e.message as Msg).params) && ((e.message as Msg).params as Msg).name === TOOL.name);
    if (calls.length === 0) return untestable(`the client did not call ${TOOL.name} (its text argument is declared x-mcp-header) over HTTP`);
    const problems: Evidence[] = [];
    for (const e of calls) {
      const args = ((e.message as Msg).params as Msg).arguments;
      for (const d of TOOL_HEADERS) {
        const expected = paramHeaderText(valueAtPath(args, d.path));
        const sent = e.http!.headers[`${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase()];
        const ok = expected === undefined ? sent === undefined : sent !== undefined && decodeHeaderValue(sent) === expected && (isPlainHeaderValue(expected) || sent !== expected);
        if (!ok) problems.push({ what: `tools/call ${TOOL.name} POST: ${PARAM_HEADER_PREFIX}${d.header}`, expected: expected === undefined ? '(absent)' : encodeHeaderValue(expected), actual: sent ?? '(absent)', seq: [e.seq] });
      }
    }
    if (problems.length) return violated(`${problems.length} of ${calls.length} tools/call POSTs have a missing or wrong Mcp-Param header; first: ${String(problems[0].actual)} for ${String(problems[0].expected)}`, problems.slice(0, 3));
    return holds(`${calls.length} tools/call POSTs, each with the Mcp-Param headers of its arguments`);
  },
});

export const clientChecks = [
  metaRequired, metaClientInfo, staysModern, discoverFirst,
  legacyFallback, legacyFallbackHttp, eraCached, initialized, initWait, sessionId, sessionDelete, serverRequests, undeclaredRequest,
  counterOfferCheck, unsupportedVersionDisconnects, offersNewest,
  mrtrFulfils, mrtrRequestState, mrtrRetryId, mrtrScoped,
  resultTypeMissing, resultTypeUnknown,
  cacheFresh,
  taskPolls, taskPollInterval, taskInput,
  legacyTaskPolls, legacyTaskUnasked,
  nearValidSurvives, sseResponses, ssePollResumes, sseRetryRespected, reissuesBrokenRequest, restartsDeadServer, stderrIgnored,
  clientSchema, requestIds, notificationIds, cancellations, noBatch, metaKeyNames,
  httpAccept, httpProtocolVersion, httpMethodHeader, httpNameHeader, httpParamHeaders,
];
