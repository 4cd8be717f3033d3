// meta.*: the per-request `_meta` of the modern era (B26, MT-01..MT-02) and the `_meta` key grammar
// of every era (MT-10, MT-11).

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../protocol/versions.js';
import { metaKeyFindings } from '../protocol/meta-keys.js';
import { holds, oracle, untestable, violated } from './check.js';
import { clipJson, errorCode, evidence, outcome, unanswerable } from './exchange.js';
import type { Exchange } from './ports.js';
import { META_PROTOCOL_VERSION } from '../protocol/meta.js';
import { missingMetaKeys } from './request-shape.js';

function problem(ex: Exchange, missing: string[], http: boolean): string | undefined {
  const code = errorCode(ex);
  // Without protocolVersion in _meta an HTTP body also disagrees with its header: -32020 is fair there.
  const ok = http && missing.includes(META_PROTOCOL_VERSION) ? [-32602, -32020] : [-32602];
  if (code === undefined || !ok.includes(code)) return `${ex.method} without ${missing.join(' and ')}: ${outcome(ex)}`;
  if (ex.http && ex.http.status !== 400) return `${ex.method} without ${missing.join(' and ')}: HTTP ${ex.http.status}, not 400`;
  return undefined;
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
      const inbound = events.filter((e) => e.dir === 'in' && e.kind === 'message');
      if (inbound.length === 0) return untestable('the server sent no message');
      const bad = inbound.flatMap((e) => metaKeyFindings(e.message).map((f) => ({ e, f })));
      if (bad.length) {
        const keys = [...new Set(bad.map(({ f }) => f.key))];
        return violated(`${keys.length} invalid _meta key(s) or extension id(s) in ${new Set(bad.map(({ e }) => e.seq)).size} message(s); first: ${JSON.stringify(bad[0].f.key)} (${bad[0].f.problem})`,
          bad.slice(0, 3).map(({ e, f }) => ({ what: `key ${JSON.stringify(f.key)}: ${f.problem}`, actual: clipJson(e.message), pointer: f.pointer, seq: [e.seq] })));
      }
      return holds(`${inbound.length} messages, every _meta key and extension id well-formed`);
    },
  }),
];
