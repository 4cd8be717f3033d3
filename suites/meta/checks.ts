// meta.*: the per-request `_meta` of the modern era (B26, MT-01..MT-02) and the `_meta` key grammar
// of every era (MT-10, MT-11).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import { escapePointer, metaKeyFindings, walkMeta } from '../../protocol/meta-keys.js';
import { undefinedReservedKey } from '../../protocol/reserved-meta-keys.js';
import { TRACE_CONTEXT_KEYS } from '../../protocol/trace-context.js';
import { check, holds, oracle, untestable, violated, type Judgement } from '../kit/check.js';
import { discoverScenario } from '../lifecycle/discover-scenario.js';
import type { WireEvent } from '../../results/wire.js';
import { clipJson, errorCode, errorOf, evidence, isObj, oneOfEachFirst, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../protocol/meta.js';
import { missingMetaKeys, namesVersion, sentRequest } from '../kit/request-shape.js';
import { every, firstOffenders } from '../kit/judge.js';

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
  const code = errorCode(ex);
  if (code !== -32021) return `${ex.method ?? 'a request'} got ${code} naming data.requiredCapabilities ${JSON.stringify(required)}: a refusal for a capability the request did not declare is -32021`;
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
      firstOffenders(bad).map(({ e, f }) => ({ what: `key ${JSON.stringify(f.key)}: ${f.problem}`, actual: clipJson(e.message), pointer: f.pointer, seq: [e.seq] })));
  }
  return holds(`${sent.length} ${sender === 'client' ? 'client ' : ''}messages, every _meta key and extension id well-formed`);
}

interface MetaFinding {
  e: WireEvent;
  pointer: string;
  problem: string;
}

/** MT-09: every OpenTelemetry key in a `_meta` the sender wrote holds a W3C Trace Context / Baggage value. */
export function judgeTraceContext(sent: WireEvent[], sender: 'server' | 'client'): Judgement {
  const bad: MetaFinding[] = [];
  let seen = 0;
  for (const e of sent) {
    walkMeta(e.message, (meta, at) => {
      for (const [key, check] of Object.entries(TRACE_CONTEXT_KEYS)) {
        if (!(key in meta)) continue;
        seen++;
        const problem = check(meta[key]);
        if (problem) bad.push({ e, pointer: `${at}/${key}`, problem });
      }
    });
  }
  if (seen === 0) return untestable(`the ${sender} sent no traceparent, tracestate or baggage in any _meta`);
  if (bad.length) return violated(`${bad.length} of ${seen} trace context values are malformed; first: ${bad[0].problem}`, firstOffenders(bad).map(({ e, pointer, problem }) => ({ what: problem, actual: clipJson(e.message), pointer, seq: [e.seq] })));
  return holds(`${seen} trace context values, each in W3C form`);
}

/** MT-10: keys under a reserved prefix (second label modelcontextprotocol or mcp) are ones MCP defines. */
export function judgeReservedKeys(sent: WireEvent[], sender: 'server' | 'client'): Judgement {
  if (sent.length === 0) return untestable(`the ${sender} sent no message`);
  // An official extension mcpspec does not know may name a key after itself: declared ids are allowed.
  const declared = new Set<string>();
  for (const e of sent) walkMeta(e.message, () => undefined, (ext) => isObj(ext) && Object.keys(ext).forEach((id) => declared.add(id)));
  const bad: MetaFinding[] = [];
  for (const e of sent) {
    walkMeta(e.message, (meta, at) => {
      for (const key of Object.keys(meta)) if (undefinedReservedKey(key, declared)) bad.push({ e, pointer: `${at}/${escapePointer(key)}`, problem: `key ${JSON.stringify(key)} is under a prefix reserved for MCP, and neither MCP nor an official extension defines it` });
    });
  }
  if (bad.length) {
    const keys = [...new Set(bad.map((b) => b.pointer.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~')))];
    return violated(`${keys.length} _meta key(s) made up under a reserved prefix, in ${new Set(bad.map((b) => b.e.seq)).size} message(s): ${firstOffenders(keys).map((k) => JSON.stringify(k)).join(', ')}`, firstOffenders(bad).map(({ e, pointer, problem }) => ({ what: problem, actual: clipJson(e.message), pointer, seq: [e.seq] })));
  }
  return holds(`${sent.length} ${sender === 'client' ? 'client ' : ''}messages, no made-up key under a reserved prefix`);
}

/** The exchanges of a modern run whose request was itself modern (not a legacy probe such as initialize). */
function modernResults(exchanges: Exchange[]): Exchange[] {
  return exchanges.filter((ex) => resultOf(ex) !== undefined && namesVersion(sentRequest(ex)));
}

export const metaChecks = [
  check(discoverScenario, {
    id: 'meta.client-info-optional',
    title: 'a request without _meta clientInfo (optional: only protocolVersion and clientCapabilities are required) is served like the same request with it',
    requirements: ['MT-01', 'MT-03', 'MT-07'],
    level: 'SHOULD',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ withInfo, withoutInfo }) {
      if (!withInfo || !withoutInfo || unanswerable(withoutInfo)) return untestable('the requests with and without clientInfo were not both sent');
      const method = withInfo.method ?? 'the request';
      if (!resultOf(withInfo)) return untestable(`${method} with clientInfo got ${outcome(withInfo)}: nothing to compare with`);
      if (resultOf(withoutInfo)) return holds(`${method} without clientInfo was served`);
      return violated(`${method} without clientInfo got ${outcome(withoutInfo)}, with it a result: the server makes clientInfo required`, [evidence(`${method} without clientInfo`, withoutInfo, { expected: 'a result, as with clientInfo' })]);
    },
  }),
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
      if (bad.length) return violated(`${bad.length} of ${lacking.length} requests missing required _meta keys were not refused with -32602; first: ${bad[0][1]}`, oneOfEachFirst(bad, ([, p]) => p).map(([ex, p]) => evidence(p, ex, { expected: { error: { code: -32602 } } })));
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
    title: 'every refusal for an undeclared capability is -32021 naming in data.requiredCapabilities what the request did not declare, with HTTP 400',
    requirements: ['MT-05', 'HM-12'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges, transport }) {
      // A refusal naming data.requiredCapabilities under another code is one too, with the wrong code.
      const namesRequired = (ex: Exchange) => {
        const data = errorOf(ex)?.data;
        return isObj(data) && isObj(data.requiredCapabilities);
      };
      const problem = (ex: Exchange) => capabilityErrorProblem(ex, transport === 'http');
      return every(exchanges.filter((ex) => errorCode(ex) === -32021 || namesRequired(ex)), {
        none: 'no request of the run was refused with -32021',
        offends: (ex) => problem(ex) !== undefined,
        violated: (bad, refusals) => `${bad.length} of ${refusals.length} capability refusals are wrong; first: ${problem(bad[0])}`,
        evidence: (ex) => evidence(problem(ex)!, ex, { expected: { error: { code: -32021, data: { requiredCapabilities: '(capabilities the request did not declare)' } } } }),
        holds: (refusals) => `${refusals.length} -32021 answers, each naming a capability the request had not declared`,
      });
    },
  }),
  oracle({
    id: 'meta.server-info',
    title: 'every result names the server in _meta serverInfo (an Implementation: name and version)',
    requirements: ['MT-06'],
    level: 'SHOULD',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ exchanges }) {
      const results = modernResults(exchanges);
      if (results.length === 0) return untestable('no request of the run got a result');
      // serverInfo is an Implementation: name and version are both required of it.
      const problemOf = (ex: Exchange): string | undefined => {
        const meta = resultOf(ex)!._meta;
        const info = isObj(meta) ? meta[META_SERVER_INFO] : undefined;
        if (!isObj(info)) return 'without serverInfo';
        const lacks = ['name', 'version'].filter((k) => typeof info[k] !== 'string');
        return lacks.length ? `with a serverInfo lacking ${lacks.join(' and ')}` : undefined;
      };
      const bad = results.map((ex) => [ex, problemOf(ex)] as const).filter(([, p]) => p) as [Exchange, string][];
      if (bad.length) {
        const methods = [...new Set(bad.map(([ex]) => ex.method ?? '?'))];
        return violated(`${bad.length} of ${results.length} results lack _meta["${META_SERVER_INFO}"] or its name or version (${methods.slice(0, 4).join(', ')}${methods.length > 4 ? ', ...' : ''})`, oneOfEachFirst(bad, ([, p]) => p).map(([ex, p]) => evidence(`${ex.method} result ${p}`, ex, { pointer: `/result/_meta/${escapePointer(META_SERVER_INFO)}` })));
      }
      return holds(`${results.length} results, each naming the server`);
    },
  }),
  oracle({
    id: 'meta.trace-context',
    title: 'every traceparent, tracestate and baggage the server puts in _meta is in W3C form',
    requirements: ['MT-09'],
    level: 'MUST',
    versions: MODERN,
    spec: SPEC.basic26,
    judge({ events }) {
      return judgeTraceContext(events.filter((e) => e.dir === 'in' && e.kind === 'message'), 'server');
    },
  }),
  oracle({
    id: 'meta.reserved-keys',
    title: 'the server makes up no _meta key under a prefix MCP reserves',
    requirements: ['MT-10'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ events }) {
      return judgeReservedKeys(events.filter((e) => e.dir === 'in' && e.kind === 'message'), 'server');
    },
  }),
];
