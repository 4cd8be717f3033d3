// version.*: per-request version negotiation (V26).

import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { check, holds, oracle, skip, untestable, violated } from '../kit/check.js';
import { errorCode, errorOf, evidence, isObj, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import type { TransportKind } from '../../results/check-record.js';
import { unsupportedVersion } from '../kit/request-shape.js';
import { every } from '../kit/judge.js';
import { initializeProbe, LEGACY_ASKED, versionFirstRequest, versionNotPinned } from './discover-scenario.js';

/** How a 2026-07-28 answer falls short of one served by 2026-07-28 rules, if it does. */
function notModern(ex: Exchange, method: string): string | undefined {
  const result = resultOf(ex);
  if (!result) return `got ${outcome(ex)}`;
  if (result.resultType === undefined) return 'got a result without resultType (a legacy-era answer)';
  if (method === 'server/discover' && !Array.isArray(result.supportedVersions)) return 'got a result without supportedVersions';
  return undefined;
}

/**
 * How an answer falls short of "method not found" as 2026-07-28 gives it (VN-07, HM-07): error
 * -32601, and over HTTP the status 404 (which the body tells apart from a legacy server's 404).
 */
export function notMethodNotFound(ex: Exchange, transport: TransportKind): string | undefined {
  if (errorCode(ex) !== -32601) return `got ${outcome(ex)}, not error -32601`;
  if (transport === 'http' && ex.http?.status !== 404) return `got error -32601 with HTTP ${ex.http?.status ?? 'no status'}, not 404`;
  return undefined;
}

/** The server serves a 2025-era initialize, or lists a version older than the run's: it is dual-era. */
function dualEra(initialize: Exchange, supported: string[], version: string): string | undefined {
  if (resultOf(initialize)) return `it answered a ${LEGACY_ASKED} initialize with a result`;
  const older = supported.filter((v) => v < version);
  if (older.length) return `server/discover lists ${older.join(', ')}`;
  return undefined;
}

/** Judges a -32022 answer: code, data.supported, data.requested, HTTP 400. */
function unsupportedVersionProblem(ex: Exchange, requested: string): string | undefined {
  const err = errorOf(ex);
  if (!err) return `got ${outcome(ex)}`;
  if (err.code !== -32022) return `got error ${String(err.code)}, not -32022`;
  const data = err.data;
  if (!isObj(data) || !Array.isArray(data.supported) || !data.supported.every((v) => typeof v === 'string')) return 'error.data.supported is not a list of versions';
  if (data.requested !== requested) return `error.data.requested is ${JSON.stringify(data.requested)}, not "${requested}"`;
  if (ex.http && ex.http.status !== 400) return `HTTP status ${ex.http.status}, not 400`;
  return undefined;
}

export const versionChecks = [
  check(versionFirstRequest, {
    id: 'version.unsupported',
    title: 'a request in an unsupported version gets -32022 with data.supported and data.requested',
    requirements: ['VN-02'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.versioning26,
    judge({ first }) {
      const asked = unsupportedVersion(first) ?? '';
      if (unanswerable(first)) return untestable('the run ended before the answer came');
      const problem = unsupportedVersionProblem(first, asked);
      if (problem) return violated(`server/discover in version ${asked}: ${problem}`, [evidence('server/discover', first, { expected: { code: -32022, data: { supported: ['…'], requested: asked } } })]);
      return holds(`-32022, supported ${JSON.stringify((errorOf(first)!.data as { supported: unknown }).supported)}`);
    },
  }),
  oracle({
    id: 'version.unsupported-every-request',
    title: 'every request in an unsupported version gets -32022, not only the first of a connection',
    requirements: ['VN-02', 'VN-08'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges }) {
      const asked = exchanges.map((ex) => [ex, unsupportedVersion(ex)] as const).filter(([ex, v]) => v !== undefined && !unanswerable(ex)) as [Exchange, string][];
      return every(asked, {
        none: 'no request of the run named an unsupported version',
        offends: ([ex, v]) => unsupportedVersionProblem(ex, v) !== undefined,
        violated: (bad) => `${bad.length} of ${asked.length} requests in an unsupported version were not refused with -32022; first: ${bad[0][0].method}: ${unsupportedVersionProblem(bad[0][0], bad[0][1])}`,
        evidence: ([ex]) => evidence(ex.method ?? 'request', ex, { expected: { code: -32022 } }),
        holds: () => `${asked.length} requests in an unsupported version got -32022`,
      });
    },
  }),
  check(versionNotPinned, {
    id: 'version.not-pinned',
    title: 'a request without version _meta does not pin the connection: later 2026-07-28 requests on it are served by 2026-07-28 rules',
    requirements: ['VN-08', 'ED-07'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ claimless, discover, list, baseline, listMethod }) {
      if ([claimless, discover, list, baseline].some(unanswerable)) return untestable('the run ended before the answers came');
      // The baseline: the same request where nothing came before it on the connection.
      const unserved = notModern(baseline, listMethod);
      if (unserved) return untestable(`${listMethod} is not served by 2026-07-28 rules even on a connection opened properly (${unserved})`);
      // Only an answer can show which rules served a request: a target that exited or fell silent after
      // the opener is judged elsewhere (crash and hang findings, robustness), not as a pin.
      const silent = [discover, list].find((ex) => !ex.response);
      if (silent) return untestable(`after the opener without _meta, ${silent.method} got ${outcome(silent)}: no answer to read the rules from`);
      const opener = evidence(`${listMethod} without _meta, the first message of the connection`, claimless, { expected: 'any answer (not judged)' });
      const bad = ([[discover, 'server/discover'], [list, listMethod]] as const).map(([ex, m]) => [ex, m, notModern(ex, m)] as const).filter(([, , p]) => p);
      if (bad.length) {
        const [, m, problem] = bad[0];
        return violated(`after a first request without version _meta, a 2026-07-28 ${m} on the same connection ${problem}`, [
          opener,
          ...bad.map(([e, method]) => evidence(`then ${method} with 2026-07-28 _meta`, e, { expected: method === 'server/discover' ? 'a DiscoverResult' : 'a result with resultType' })),
          evidence(`${listMethod} on a connection opened properly`, baseline),
        ]);
      }
      return holds(`after an opener without version _meta (${outcome(claimless)}), server/discover and ${listMethod} were served by 2026-07-28 rules`);
    },
  }),
  check(initializeProbe, {
    id: 'version.initialize-names-versions',
    title: 'a server that refuses initialize (modern-only) names the protocol versions it supports in the error',
    requirements: ['ED-06'],
    level: 'SHOULD',
    versions: MODERN,
    spec: SPEC.versioning26,
    judge({ initialize, supported }) {
      if (unanswerable(initialize)) return untestable('the run ended before the answer came');
      if (resultOf(initialize)) return skip('the server serves initialize (it speaks a legacy version too): only a modern-only server refuses it');
      const err = errorOf(initialize);
      // The error as a legacy client sees it: the JSON-RPC error, or the HTTP body when there is none.
      const text = err ? JSON.stringify(err) : initialize.http?.body;
      if (!text) return untestable(`initialize got ${outcome(initialize)}: no error to read`);
      // The version asked for does not count: echoing it back says nothing about what is supported.
      const candidates = supported.filter((v) => v !== LEGACY_ASKED);
      if (candidates.length === 0) return untestable('server/discover listed no version to look for in the error');
      const named = candidates.filter((v) => text.includes(v));
      if (named.length) return holds(`initialize refused with ${outcome(initialize)}, naming ${named.join(', ')}`);
      return violated(`initialize refused with ${outcome(initialize)}, naming none of the supported versions (${candidates.join(', ')}): a legacy client has nothing to tell its user`, [
        evidence('initialize (2025-11-25) on a fresh connection', initialize, { expected: `an error naming ${candidates.join(' or ')}` }),
      ]);
    },
  }),
  check(initializeProbe, {
    id: 'version.removed-methods',
    // changelog 2026-07-28: ping, logging/setLevel, resources/subscribe and resources/unsubscribe are
    // removed. versioning: "A request carrying modern per-request `_meta` is served statelessly according
    // to this revision" (a dual-era server too: it serves these under legacy semantics only in a session
    // opened with initialize). streamable-http: "If the server does not implement the requested RPC
    // method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601`"; SEP-2575:
    // "If a client calls an unsupported RPC, the server MUST return a `Method not found` JSON-RPC error
    // (`-32601`)" (stdio: the JSON-RPC error only).
    title: 'ping, logging/setLevel, resources/subscribe and resources/unsubscribe sent as 2026-07-28 requests get -32601 (over HTTP with 404): the version removed them',
    requirements: ['VN-07', 'HM-07', 'ED-07'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.http26,
    judge({ removed }, ctx) {
      const answered = removed.filter((r) => !unanswerable(r.exchange));
      if (answered.length === 0) return untestable('the run ended before the answers came');
      return every(answered, {
        none: 'no removed method was asked',
        offends: (r) => notMethodNotFound(r.exchange, ctx.transport) !== undefined,
        violated: (bad) => `${bad.map((r) => `${r.method} ${notMethodNotFound(r.exchange, ctx.transport)}`).join('; ')}: a request with 2026-07-28 _meta is served by 2026-07-28 rules, which have no such method`,
        evidence: (r) => evidence(`${r.method} with 2026-07-28 _meta`, r.exchange, { expected: ctx.transport === 'http' ? 'HTTP 404, error -32601' : { error: { code: -32601 } } }),
        holds: (all) => `${all.map((r) => r.method).join(', ')}: each -32601${ctx.transport === 'http' ? ' with HTTP 404' : ''}`,
      });
    },
  }),
  check(initializeProbe, {
    id: 'version.initialize-modern',
    // 2026-07-28 has no initialize (changelog, SEP-2575 "Deprecated and Removed RPCs"); streamable-http:
    // "If the server does not implement the requested RPC method, it MUST respond with `404 Not Found`
    // and a JSON-RPC error with code `-32601`". A dual-era server is another case: versioning says "An
    // `initialize` request selects legacy semantics", so one that serves 2025-era clients may take it as
    // the handshake (skipped; -32601 still passes). How this sits with version.initialize-names-versions
    // (ED-06, a SHOULD on a 2025-era initialize): the -32601 error can name the supported versions in
    // its message or data, as the reference fixture's does; the two probes are different requests.
    title: 'initialize sent as a 2026-07-28 request gets -32601 (over HTTP with 404) from a server that speaks only 2026-07-28',
    requirements: ['VN-07', 'HM-07', 'ED-07'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.http26,
    judge({ initialize, supported, modernInitialize }, ctx) {
      if (unanswerable(modernInitialize)) return untestable('the run ended before the answer came');
      const problem = notMethodNotFound(modernInitialize, ctx.transport);
      if (!problem) return holds(`initialize with 2026-07-28 _meta got -32601${ctx.transport === 'http' ? ' with HTTP 404' : ''}`);
      const dual = dualEra(initialize, supported, ctx.version);
      if (dual) return skip(`the server is dual-era (${dual}), and an initialize selects legacy semantics there (versioning): initialize with 2026-07-28 _meta ${problem}`);
      if (unanswerable(initialize)) return untestable(`initialize with 2026-07-28 _meta ${problem}, and whether the server also speaks a 2025 version is unknown: the ${LEGACY_ASKED} initialize got no answer`);
      return violated(`initialize with 2026-07-28 _meta ${problem}: a server that speaks only 2026-07-28 (it refused a ${LEGACY_ASKED} initialize: ${outcome(initialize)}) does not implement initialize`, [
        evidence('initialize with 2026-07-28 _meta', modernInitialize, { expected: ctx.transport === 'http' ? 'HTTP 404, error -32601' : { error: { code: -32601 } } }),
        evidence(`initialize (${LEGACY_ASKED}) on a fresh connection`, initialize, { expected: 'not judged: it shows the server is modern-only' }),
      ]);
    },
  }),
];
