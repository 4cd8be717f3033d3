// version.*: per-request version negotiation (V26).

import { SPEC } from '../protocol/spec-links.js';
import { MODERN } from '../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from './check.js';
import { errorOf, evidence, isObj, outcome, unanswerable } from './exchange.js';
import type { Exchange } from './ports.js';
import { unsupportedVersion } from './request-shape.js';
import { versionFirstRequest } from './scenarios/discover.js';

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
      if (asked.length === 0) return untestable('no request of the run named an unsupported version');
      const bad = asked.map(([ex, v]) => [ex, unsupportedVersionProblem(ex, v)] as const).filter(([, p]) => p) as [Exchange, string][];
      if (bad.length) return violated(`${bad.length} of ${asked.length} requests in an unsupported version were not refused with -32022; first: ${bad[0][0].method}: ${bad[0][1]}`, bad.slice(0, 3).map(([ex]) => evidence(ex.method ?? 'request', ex, { expected: { code: -32022 } })));
      return holds(`${asked.length} requests in an unsupported version got -32022`);
    },
  }),
];
