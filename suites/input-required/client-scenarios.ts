// Client-role input_required scenarios: mcpspec's scripted 2026-07-28 server
// (suites/client/scripted-server.ts) answers tools/call, prompts/get and resources/read with
// input_required rounds, or with results of a missing or unknown resultType. Judged by
// client-checks.ts beside it.

import { META_SERVER_INFO } from '../../protocol/meta.js';
import { MODERN } from '../../protocol/versions.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { targetOf } from '../client/client-reading.js';
import { inputRequestsFor, MODERN_VERSION, runScript, SCRIPTED_INFO, type Request } from '../client/scripted-server.js';

/** One input_required answer the script gave. */
export interface Round {
  /** The Received seq and JSON-RPC id of the request it answered. */
  seq: number;
  id: unknown;
  method: string;
  target: string;
  requestState: string;
  inputKeys: string[];
  /** 1-based round within its chain. */
  round: number;
}

export interface MrtrObs extends ClientObs {
  rounds: Round[];
}

export const MRTR_METHODS = ['tools/call', 'prompts/get', 'resources/read'];

/** Opaque state whose bytes a careless client would change: a decomposed é, +/=, a quote, trailing space. */
function stateFor(method: string, round: number): string {
  return `mcpspec:${method}:${round}:e\u0301+/=="q" \u2028 `;
}

/**
 * tools/call, prompts/get and resources/read each take three rounds: input_required with the input
 * requests the client declared (and requestState), then input_required with requestState only,
 * then the result. A retry whose requestState is not the one issued starts the chain again.
 */
export const inputRequired = clientScenario<MrtrObs>({
  id: 'client-input-required',
  title: 'a scripted 2026-07-28 server answering tools/call, prompts/get and resources/read with input_required, twice',
  versions: MODERN,
  async run(ctx) {
    const rounds: Round[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req: Request, mctx) {
        if (!MRTR_METHODS.includes(req.method)) return undefined;
        const target = targetOf(req.params);
        const prev = [...rounds].reverse().find((r) => r.method === req.method && r.target === target && r.requestState === req.params.requestState);
        const round = prev ? prev.round + 1 : 1;
        if (round > 2) return undefined; // the plain result
        const inputRequests = round === 1 ? inputRequestsFor(mctx.capabilities) : {};
        const requestState = stateFor(req.method, round);
        rounds.push({ seq: mctx.received.seq, id: req.id, method: req.method, target, requestState, inputKeys: Object.keys(inputRequests), round });
        const result: Record<string, unknown> = { resultType: 'input_required', requestState, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
        if (Object.keys(inputRequests).length) result.inputRequests = inputRequests;
        return { jsonrpc: '2.0', id: req.id, result };
      },
    });
    return { ...(await observe(ctx, log)), rounds };
  },
});

/** One input_required answer of the stateless scenario: it asked for input and carried no requestState. */
export type StatelessRound = Omit<Round, 'requestState' | 'round'>;

export interface StatelessObs extends ClientObs {
  rounds: StatelessRound[];
}

/**
 * tools/call, prompts/get and resources/read answered with input_required asking for input the
 * client declared, with no requestState (IR-02 allows either); the retry carrying inputResponses
 * gets the result. A client that declared nothing to ask with gets plain results.
 */
export const inputRequiredStateless = clientScenario<StatelessObs>({
  id: 'client-input-required-stateless',
  title: 'a scripted 2026-07-28 server answering tools/call, prompts/get and resources/read with input_required that carries no requestState',
  versions: MODERN,
  async run(ctx) {
    const rounds: StatelessRound[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req: Request, mctx) {
        if (!MRTR_METHODS.includes(req.method) || req.params.inputResponses !== undefined) return undefined;
        const inputRequests = inputRequestsFor(mctx.capabilities);
        if (Object.keys(inputRequests).length === 0) return undefined;
        rounds.push({ seq: mctx.received.seq, id: req.id, method: req.method, target: targetOf(req.params), inputKeys: Object.keys(inputRequests) });
        return { jsonrpc: '2.0', id: req.id, result: { resultType: 'input_required', inputRequests, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
      },
    });
    return { ...(await observe(ctx, log)), rounds };
  },
});

export const UNKNOWN_RESULT_TYPE = 'x-mcpspec-unknown';
export const UNKNOWN_STATE = 'mcpspec-unknown-result-type-state';

export interface ResultTypeObs extends ClientObs {
  /** The Received seq of server/discover requests answered without resultType. */
  bareDiscover: number[];
  /** Requests answered with an unknown resultType. */
  unknown: { seq: number; method: string }[];
}

/**
 * server/discover answered without resultType (an earlier-version answer: treat as complete), and
 * tools/call, prompts/get and resources/read answered with an unknown resultType that otherwise
 * looks like input_required (a client must treat it as invalid, not retry with its state).
 */
export const resultTypes = clientScenario<ResultTypeObs>({
  id: 'client-result-type',
  title: 'a scripted 2026-07-28 server sending a result without resultType and one with an unknown resultType',
  versions: MODERN,
  async run(ctx) {
    const bareDiscover: number[] = [];
    const unknown: { seq: number; method: string }[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method === 'server/discover') {
          bareDiscover.push(mctx.received.seq);
          return { jsonrpc: '2.0', id: req.id, result: { supportedVersions: [MODERN_VERSION], capabilities: { tools: {}, prompts: {}, resources: {} }, ttlMs: 0, cacheScope: 'public', _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
        }
        if (!MRTR_METHODS.includes(req.method)) return undefined;
        unknown.push({ seq: mctx.received.seq, method: req.method });
        return { jsonrpc: '2.0', id: req.id, result: { resultType: UNKNOWN_RESULT_TYPE, requestState: UNKNOWN_STATE, inputRequests: {}, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
      },
    });
    return { ...(await observe(ctx, log)), bareDiscover, unknown };
  },
});
