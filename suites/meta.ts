// meta.*: the per-request `_meta` of the modern era (B26, MT-01..MT-02) and the `_meta` key grammar
// of every era (MT-10, MT-11).

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../protocol/versions.js';
import { metaKeyFindings } from '../protocol/meta-keys.js';
import { holds, oracle, untestable, violated, type Judgement } from './check.js';
import type { WireEvent } from '../results/wire.js';
import { clipJson, errorCode, errorOf, evidence, isObj, outcome, unanswerable } from './exchange.js';
import type { Exchange } from './ports.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../protocol/meta.js';
import { missingMetaKeys, sentRequest } from './request-shape.js';

function problem(ex: Exchange, missing: string[], http: boolean): string | undefined {
  const code = errorCode(ex);
  // Without protocolVersion in _meta an HTTP body also disagrees with its header: -32020 is fair there.
  const ok = http && missing.includes(META_PROTOCOL_VERSION) ? [-32602, -32020] : [-32602];
  if (code === undefined || !ok.includes(code)) return `${ex.method} without ${missing.join(' and ')}: ${outcome(ex)}`;
  if (ex.http && ex.http.status !== 400) return `${ex.method} without ${missing.join(' and ')}: HTTP ${ex.http.status}, not 400`;
  return undefined;
}

/** `required` asks for nothing beyond `declared` (every key, at every depth, is there). */
function covered(required: Record<string, unknown>, declared: Record<string, unknown>): boolean {
  return Object.entries(required).every(([k, v]) => k in declared && (!isObj(v) || (isObj(declared[k]) && covered(v, declared[k] as Record<string, unknown>))));
}

/** What is wrong with one -32021 answer (MT-05, HM-12), or undefined. */
function capabilityErrorProblem(ex: Exchange, http: boolean): string | undefined {
  const data = errorOf(ex)?.data;
  const required = isObj(data) ? data.requiredCapabilities : undefined;
  if (!isObj(required) || Object.keys(required).length === 0) return `${ex.method ?? 'a request'} got -32021 naming no capability in data.requiredCapabilities`;
  const meta = sentRequest(ex)?.params?._meta;
  const declared = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  if (isObj(declared) && covered(required, declared)) return `${ex.method ?? 'a request'} got -32021 requiring ${JSON.stringify(required)}, which the request declared`;
  if (http && ex.http && ex.http.status !== 400) return `${ex.method ?? 'a request'} got -32021 with HTTP ${ex.http.status}, not 400`;
  return undefined;
}

/** MT-10, MT-11 over what one side sent (meta.key-names, client.meta-key-names). */
export function judgeMetaKeyNames(sent: WireEvent[], sender: 'server' | 'client'): Judgement {
  if (sent.length === 0) return untestable(`the ${sender} sent no message`);
  const bad = sent.flatMap((e) => metaKeyFindings(e.message).map((f) => ({ e, f })));
  if (bad.length) {
    const keys = new Set(bad.map(({ f }) => f.key));
    return violated(`${keys.size} invalid _meta key(s) or extension id(s) in ${new Set(bad.map(({ e }) => e.seq)).size} message(s); first: ${JSON.stringify(bad[0].f.key)} (${bad[0].f.problem})`,
      bad.slice(0, 3).map(({ e, f }) => ({ what: `key ${JSON.stringify(f.key)}: ${f.problem}`, actual: clipJson(e.message), pointer: f.pointer, seq: [e.seq] })));
  }
  return holds(`${sent.length} ${sender === 'client' ? 'client ' : ''}messages, every _meta key and extension id well-formed`);
}

export const metaChecks = [
  oracle({
    id: 'meta.required-keys',
    title: 'every request whose _meta lacks a required key gets -32602 (HTTP 400)',
    requirements: ['MT-01', 'MT-02', 'HM-12'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges, transport }) {
      const lacking = exchanges.map((ex) => [ex, missingMetaKeys(ex)] as const).filter(([ex, m]) => m.length > 0 && !unanswerable(ex));
      if (lacking.length === 0) return untestable('no request of the run had a _meta lacking a required key');
      const bad = lacking.map(([ex, m]) => [ex, problem(ex, m, transport === 'http')] as const).filter(([, p]) => p) as [Exchange, string][];
      if (bad.length) return violated(`${bad.length} of ${lacking.length} requests missing required _meta keys were not refused with -32602; first: ${bad[0][1]}`, bad.slice(0, 3).map(([ex]) => evidence(ex.method ?? 'request', ex, { expected: { error: { code: -32602 } } })));
      return holds(`${lacking.length} requests whose _meta lacked protocolVersion or clientCapabilities were refused with -32602`);
    },
  }),
  oracle({
    id: 'meta.key-names',
    title: 'every _meta key the server sends follows the key grammar, and every extension it declares has a vendor prefix',
    requirements: ['MT-10', 'MT-11', 'EX-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ events }) {
      return judgeMetaKeyNames(events.filter((e) => e.dir === 'in' && e.kind === 'message'), 'server');
    },
  }),
  oracle({
    id: 'meta.capability-error',
    title: 'every -32021 names in data.requiredCapabilities what the request did not declare, with HTTP 400',
    requirements: ['MT-05', 'HM-12'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges, transport }) {
      const refusals = exchanges.filter((ex) => errorCode(ex) === -32021);
      if (refusals.length === 0) return untestable('no request of the run was refused with -32021');
      const bad = refusals.map((ex) => [ex, capabilityErrorProblem(ex, transport === 'http')] as const).filter(([, p]) => p) as [Exchange, string][];
      if (bad.length) return violated(`${bad.length} of ${refusals.length} -32021 answers are wrong; first: ${bad[0][1]}`, bad.slice(0, 3).map(([ex, p]) => evidence(p, ex, { expected: { error: { code: -32021, data: { requiredCapabilities: '(capabilities the request did not declare)' } } } })));
      return holds(`${refusals.length} -32021 answers, each naming a capability the request had not declared`);
    },
  }),
];
