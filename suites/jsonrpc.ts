import { ALL_VERSIONS, check, holds, violated, type Evidence } from './check.js';
import { errorCode, evidence, isObj, outcome, expectErrorCode } from './exchange.js';
import { ProbeClock, probeTimeout, scenario, type ScenarioContext } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange, Session } from '../runner/session-types.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../runner/versions.js';

/** A harmless request of the session's era, as a plain object, for building malformed variants. */
export function harmlessRequest(session: Session, id: string | number | null): Record<string, unknown> {
  if (session.era === 'modern') {
    return {
      jsonrpc: '2.0', id, method: 'server/discover',
      params: { _meta: { [META_PROTOCOL_VERSION]: session.version, [META_CLIENT_CAPABILITIES]: {}, 'io.modelcontextprotocol/clientInfo': { name: 'mcpspec', version: '0.1.0' } } },
    };
  }
  return { jsonrpc: '2.0', id, method: 'ping' };
}

function harmlessMethod(session: Session): string {
  return session.era === 'modern' ? 'server/discover' : 'ping';
}

/**
 * How long the warm target takes to answer a harmless request (the handshake includes the
 * process start, so it is no measure): malformed-input probes wait in proportion.
 */
export async function warmLatency(session: Session): Promise<number> {
  return (await session.request(harmlessMethod(session))).elapsedMs;
}

interface Case {
  name: string;
  exchange: Exchange;
}

interface JsonRpcObs {
  parseError: Exchange;
  invalid: Case[];
  batch: Exchange;
  unknownMethod: Exchange;
  stringId: Exchange;
  intId: Exchange;
  notifications: Case[];
  paramsType: Case[];
}

const clocks = new WeakMap<ScenarioContext, ProbeClock>();

async function raw(ctx: ScenarioContext, body: unknown, expectId?: string | number | null): Promise<Exchange> {
  let clock = clocks.get(ctx);
  if (!clock) {
    const warm = await warmLatency(ctx.session);
    clocks.set(ctx, (clock = new ProbeClock(probeTimeout(ctx.options, warm), warm)));
  }
  // Malformed input may not carry a readable id: take the first response, whatever its id.
  const t = clock.timeoutMs;
  return clock.observe(await ctx.deliberate(ctx.session.raw(body, { expectId, anyResponse: true, timeoutMs: t, quietMs: t })));
}

export const jsonRpcScenario = scenario<JsonRpcObs>({
  id: 'jsonrpc',
  title: 'JSON-RPC error handling: malformed JSON, invalid requests, unknown methods, ids, notifications',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const { session } = ctx;
    const base = (id: string | number | null) => harmlessRequest(session, id);
    const parseError = await raw(ctx, '{"jsonrpc": "2.0", "id": "mcpspec-parse", "method": "pi');
    const { jsonrpc: _drop, ...noJsonrpc } = base('mcpspec-inv-1');
    const { method: _m, ...noMethod } = base('mcpspec-inv-4');
    const invalid: Case[] = [];
    for (const [name, body] of [
      ['no "jsonrpc" member', noJsonrpc],
      ['"jsonrpc": "1.0"', { ...base('mcpspec-inv-2'), jsonrpc: '1.0' }],
      ['"id": null', base(null)],
      ['no "method" member', noMethod],
    ] as const) {
      invalid.push({ name, exchange: await raw(ctx, body) });
    }
    const batch = await raw(ctx, [base('mcpspec-batch-1'), base('mcpspec-batch-2')]);
    const unknownMethod = await ctx.deliberate(session.request('mcpspec/no-such-method', {}));
    const stringId = await session.request(harmlessMethod(session), undefined, { id: 'mcpspec-Ω-7' });
    const intId = await session.request(harmlessMethod(session), undefined, { id: 2147483647 });
    const notifications: Case[] = [
      { name: 'unknown notification', exchange: await ctx.deliberate(session.notify('notifications/mcpspec/unknown', {}, { quietMs: 400 })) },
      { name: 'notifications/cancelled for an unknown request', exchange: await session.notify('notifications/cancelled', { requestId: 'mcpspec-never-sent', reason: 'test' }, { quietMs: 400 }) },
    ];
    const withParams = (id: string, params: unknown) => ({ ...base(id), params });
    const paramsType: Case[] = [
      { name: 'params is an array', exchange: await raw(ctx, withParams('mcpspec-params-1', [1, 2])) },
      { name: 'params is a string', exchange: await raw(ctx, withParams('mcpspec-params-2', 'mcpspec')) },
    ];
    return { parseError, invalid, batch, unknownMethod, stringId, intId, notifications, paramsType };
  },
  checks: [
    check<JsonRpcObs>({
      id: 'jsonrpc.parse-error',
      title: 'unparseable JSON gets -32700, without a request id',
      requirements: ['JR-06'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ parseError }) {
        const code = errorCode(parseError);
        if (code !== -32700) return violated(`a truncated JSON text got ${outcome(parseError)}`, [evidence('malformed JSON', parseError, { expected: { error: { code: -32700 }, id: 'absent or null' } })]);
        const id = (parseError.response as Record<string, unknown>).id;
        if (id !== undefined && id !== null) return violated(`the parse error carries id ${JSON.stringify(id)}, which could not have been read`, [evidence('malformed JSON', parseError)]);
        return holds('-32700');
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.invalid-request',
      title: 'invalid request objects are refused with -32600',
      requirements: ['JR-02', 'JR-06'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ invalid }) {
        const bad = invalid.filter((c) => errorCode(c.exchange) !== -32600);
        if (bad.length) return violated(bad.map((c) => `${c.name}: ${outcome(c.exchange)}`).join('; '), bad.map((c) => evidence(c.name, c.exchange, { expected: { error: { code: -32600 } } })));
        return holds(`${invalid.length} invalid requests got -32600`);
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.batch',
      title: 'a JSON-RPC batch array is refused with an error, not served (batching left MCP in 2025-06-18)',
      requirements: ['JR-08'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ batch }) {
        // The code is not fixed by the spec (-32600 is usual); serving the batch is what is judged.
        const served = Array.isArray(batch.response) || (isObj(batch.response) && 'result' in batch.response) || batch.messages.some((m) => Array.isArray(m) || (isObj(m) && 'result' in m));
        if (served || errorCode(batch) === undefined) return violated(`a batch of two requests was ${served ? 'served' : `not refused: ${outcome(batch)}`}`, [evidence('batch', batch, { expected: 'one error response' })]);
        return holds(`refused with error ${errorCode(batch)}`);
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.method-not-found',
      title: 'an unknown method gets -32601',
      requirements: ['VN-07'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ unknownMethod }) {
        return expectErrorCode(unknownMethod, -32601, 'mcpspec/no-such-method');
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.id-echo',
      title: 'responses echo the request id exactly, with its JSON type',
      requirements: ['JR-04'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ stringId, intId }) {
        const bad: Evidence[] = [];
        for (const [ex, want] of [[stringId, 'mcpspec-Ω-7'], [intId, 2147483647]] as const) {
          const got = isObj(ex.response) ? ex.response.id : undefined;
          if (got !== want) bad.push(evidence(`id ${JSON.stringify(want)}`, ex, { pointer: '/id', expected: want, actual: got === undefined ? outcome(ex) : got }));
        }
        if (bad.length) return violated(`ids came back changed: ${bad.map((b) => `${JSON.stringify(b.expected)} -> ${JSON.stringify(b.actual)}`).join(', ')}`, bad);
        return holds('a string id and an integer id came back identical');
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.notification-no-response',
      title: 'notifications are never answered',
      requirements: ['JR-07'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ notifications }) {
        const answered = notifications.filter((c) => c.exchange.messages.some((m) => isObj(m) && ('result' in m || 'error' in m)));
        if (answered.length) return violated(`answered: ${answered.map((c) => c.name).join(', ')}`, answered.map((c) => evidence(c.name, c.exchange, { actual: c.exchange.messages[0], expected: 'no response' })));
        return holds(`${notifications.length} notifications, no response within 400 ms`);
      },
    }),
    check<JsonRpcObs>({
      id: 'jsonrpc.params-type',
      title: 'params of the wrong JSON type get an error (-32602 or -32600)',
      requirements: ['JR-06'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ paramsType }) {
        const bad = paramsType.filter((c) => ![-32602, -32600].includes(errorCode(c.exchange) ?? 0));
        if (bad.length) return violated(bad.map((c) => `${c.name}: ${outcome(c.exchange)}`).join('; '), bad.map((c) => evidence(c.name, c.exchange, { expected: { error: { code: '-32602 or -32600' } } })));
        return holds('array and string params were refused');
      },
    }),
  ],
});

