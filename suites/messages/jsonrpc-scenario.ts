import { modernMeta } from '../../protocol/meta.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

/** A harmless request of the session's era, as a plain object, for building malformed variants. */
export function harmlessRequest(session: Session, id: string | number | null): Record<string, unknown> {
  if (session.era === 'modern') return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta(session.version) } };
  return { jsonrpc: '2.0', id, method: 'ping' };
}

export function harmlessMethod(session: Session): string {
  return session.era === 'modern' ? 'server/discover' : 'ping';
}

export interface Case {
  name: string;
  exchange: Exchange;
}

export interface JsonRpcObs {
  parseError: Exchange;
  invalid: Case[];
  batch: Exchange;
  unknownMethod: Exchange;
  notifications: Case[];
  paramsType: Case[];
}

/** Unusual but legal ids; their echo is judged by the jsonrpc.id-echo oracle with every other answer. */
export const UNUSUAL_IDS = ['mcpspec-Ω-7 with spaces', 2147483647, 0, -1];

/**
 * Malformed input, invalid requests, a batch, unknown methods, unusual ids, notifications: all sent
 * at once. Probes whose answer may lack an id each hold their connection alone, so an id-less answer
 * is attributed to the one probe that can have caused it.
 */
export const jsonRpcScenario = scenario<JsonRpcObs>({
  id: 'jsonrpc',
  title: 'JSON-RPC error handling: malformed JSON, invalid requests, unknown methods, ids, notifications',
  versions: ALL_VERSIONS,
  startEarly: true,
  async run(ctx) {
    const { session } = ctx;
    const base = (id: string | number | null) => harmlessRequest(session, id);
    const { jsonrpc: _drop, ...noJsonrpc } = base('mcpspec-inv-1');
    const { method: _m, ...noMethod } = base('mcpspec-inv-4');
    const invalidCases: [string, unknown, string | undefined][] = [
      ['no "jsonrpc" member', noJsonrpc, 'mcpspec-inv-1'],
      ['"jsonrpc": "1.0"', { ...base('mcpspec-inv-2'), jsonrpc: '1.0' }, 'mcpspec-inv-2'],
      ['"id": null', base(null), undefined],
      ['no "method" member', noMethod, 'mcpspec-inv-4'],
    ];
    const withParams = (id: string, params: unknown) => ({ ...base(id), params });
    const [parseError, batch, unknownMethod, invalid, paramsType, notifications] = await Promise.all([
      ctx.probe('{"jsonrpc": "2.0", "id": "mcpspec-parse", "method": "pi', { idless: true }),
      ctx.probe([base('mcpspec-batch-1'), base('mcpspec-batch-2')], { idless: true }),
      ctx.deliberate(session.request('mcpspec/no-such-method', {})),
      Promise.all(invalidCases.map(async ([name, body, expectId]) => ({ name, exchange: await ctx.probe(body, { expectId, idless: true }) }))),
      Promise.all(
        [['params is an array', withParams('mcpspec-params-1', [1, 2]), 'mcpspec-params-1'], ['params is a string', withParams('mcpspec-params-2', 'mcpspec'), 'mcpspec-params-2']].map(
          async ([name, body, expectId]) => ({ name: name as string, exchange: await ctx.probe(body, { expectId: expectId as string, idless: true }) }),
        ),
      ),
      Promise.all([
        ctx.deliberate(session.notify('notifications/mcpspec/unknown', {})).then((exchange) => ({ name: 'unknown notification', exchange })),
        session.notify('notifications/cancelled', { requestId: 'mcpspec-never-sent', reason: 'test' }).then((exchange) => ({ name: 'notifications/cancelled for an unknown request', exchange })),
      ]),
      ...UNUSUAL_IDS.map((id) => session.request(harmlessMethod(session), undefined, { id })),
    ]);
    return { parseError, invalid, batch, unknownMethod, notifications, paramsType };
  },
});
