// client.* oracles over everything a client sent in a run: its stdio framing (IO-01, IO-02), the
// responses it sends (JR-09), its initialize (LC-01) and the server capabilities it uses (LC-07).

import { isObj } from '../../protocol/jsonrpc.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { holds, oracle, untestable, violated } from '../kit/check.js';
import { clip, clipJson } from '../kit/exchange.js';

type Msg = Record<string, unknown>;
const isRequest = (m: unknown): m is Msg & { method: string } => isObj(m) && typeof m.method === 'string' && 'id' in m;
const isResponse = (m: unknown): m is Msg => isObj(m) && typeof m.method !== 'string' && ('result' in m || 'error' in m);
const idKey = (id: unknown) => JSON.stringify(id);
const fromClient = (events: WireEvent[]) => events.filter((e) => e.dir === 'in' && e.kind === 'message');

const stdioLines = oracle({
  id: 'client.stdio-lines',
  title: 'every line the client writes to its server\'s stdin is one JSON-RPC message (no log lines, no message over several lines)',
  requirements: ['IO-01', 'IO-02'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['stdio'] },
  spec: SPEC.stdio26,
  judge(obs) {
    const lines = obs.events.filter((e) => e.dir === 'in' && e.channel === 'stdio' && e.raw !== undefined);
    if (lines.length === 0) return untestable('the client wrote nothing to a server it started');
    // A batch array is a message array (client.no-batch judges it); anything else that is no JSON-RPC message breaks the framing.
    const bad = lines.filter((e) => e.kind !== 'message' && !Array.isArray(e.message));
    if (bad.length) {
      const first = bad[0];
      const why = first.kind === 'noise' ? 'is not JSON (a log line, or one line of a message written over several)' : 'is JSON but no JSON-RPC message';
      return violated(`${bad.length} of ${lines.length} lines on stdin are not JSON-RPC messages; the first ${why}: ${JSON.stringify(clip(first.raw ?? '', 80))}`, bad.slice(0, 3).map((e) => ({ what: e.kind === 'noise' ? 'a line that is not JSON' : 'JSON that is no JSON-RPC message', actual: clip(e.raw ?? '', 300), seq: [e.seq] })));
    }
    return holds(`${lines.length} lines on stdin, each one JSON-RPC message`);
  },
});

const responsesAnswerRequests = oracle({
  id: 'client.responses-answer-requests',
  title: 'every response the client sends answers a request the server sent it (a 2026-07-28 server sends none, so its client sends no response)',
  requirements: ['JR-09', 'JR-04'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(obs) {
    const responses = fromClient(obs.events).filter((e) => isResponse(e.message));
    if (responses.length === 0) return holds('the client sent no response');
    // The server requests of each scenario, by id: a response answers one sent earlier in the same scenario.
    const asked = new Map<string, number[]>();
    for (const e of obs.events) {
      if (e.dir !== 'out' || !isRequest(e.message)) continue;
      const k = `${e.source}|${idKey(e.message.id)}`;
      asked.set(k, [...(asked.get(k) ?? []), e.seq]);
    }
    const bad = responses.filter((e) => !(asked.get(`${e.source}|${idKey((e.message as Msg).id)}`) ?? []).some((seq) => seq < e.seq));
    if (bad.length) return violated(`${bad.length} of ${responses.length} responses from the client answer no request the server sent; first id ${idKey((bad[0].message as Msg).id)}`, bad.slice(0, 3).map((e) => ({ what: 'a response to no request', actual: clipJson(e.message, 400), seq: [e.seq] })));
    return holds(`${responses.length} responses, each to a request the server sent`);
  },
});

const initializeParams = oracle({
  id: 'client.initialize-params',
  title: 'every initialize the client sends carries protocolVersion, capabilities and clientInfo (name, version)',
  requirements: ['LC-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.lifecycle25,
  judge(obs) {
    const inits = fromClient(obs.events).filter((e) => isRequest(e.message) && e.message.method === 'initialize');
    if (inits.length === 0) return untestable('the client sent no initialize (it spoke 2026-07-28 only)');
    const missing = (m: Msg) => {
      const p = isObj(m.params) ? m.params : {};
      const info = p.clientInfo;
      return [
        typeof p.protocolVersion !== 'string' && 'protocolVersion',
        !isObj(p.capabilities) && 'capabilities',
        !(isObj(info) && typeof info.name === 'string' && typeof info.version === 'string') && 'clientInfo{name,version}',
      ].filter((x): x is string => typeof x === 'string');
    };
    const bad = inits.map((e) => [e, missing(e.message as Msg)] as const).filter(([, m]) => m.length > 0);
    if (bad.length) return violated(`${bad.length} of ${inits.length} initialize requests lack ${bad[0][1].join(', ')}`, bad.slice(0, 3).map(([e, m]) => ({ what: `initialize without ${m.join(', ')}`, actual: clipJson(e.message, 400), expected: 'params.protocolVersion, params.capabilities, params.clientInfo{name,version}', seq: [e.seq] })));
    return holds(`${inits.length} initialize requests, each with protocolVersion, capabilities and clientInfo`);
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
    if (bad.length) return violated(`${bad.length} of ${judged} requests use a capability the server did not declare; first: ${bad[0].what}`, bad.slice(0, 3));
    return holds(`${judged} capability-gated requests, each of a capability the server declared`);
  },
});

export const clientTrafficChecks = [stdioLines, responsesAnswerRequests, initializeParams, usesDeclared];
