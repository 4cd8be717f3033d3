// Legacy server-to-client requests (2025-11-25, 2025-06-18; JR-10, LC-07): mcpspec declares
// elicitation, sampling and roots in initialize (capable-client.ts) and tries what the target offers,
// one request at a time. The runner answers them with generated results (runner/server-requests.ts).

import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import type { ScenarioContext } from '../kit/scenario.js';
import type { Start } from '../input-required/flows.js';

/** What mcpspec offers in initialize for this scenario. */
export const LEGACY_CAPABLE_CLIENT = { elicitation: {}, sampling: {}, roots: {} };

export interface Call {
  target: string;
  exchange: Exchange;
  /** Requests the server sent the client while this call was outstanding. */
  asked: unknown[];
}

const isServerRequest = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message;

/**
 * Legacy: the requests one at a time, so each request the server sends the client belongs to the
 * call it came during. `meta` gives each its own `_meta` (a progressToken).
 */
export async function callOneByOne(ctx: ScenarioContext, starts: Start[], meta: (i: number) => Record<string, unknown>): Promise<Call[]> {
  const { session, options } = ctx;
  // What the server asks right after initialization (roots/list, typically) comes before this answer, not during the first call.
  await session.fence();
  const calls: Call[] = [];
  for (const [i, s] of starts.entries()) {
    if (ctx.signal.aborted) break;
    const from = session.events().length;
    const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
    const exchange = await session.request(s.method, { ...s.params, _meta: meta(i) }, { timeoutMs });
    const asked = session.events().slice(from).filter(isServerRequest).map((e) => e.message);
    calls.push({ target: s.target, exchange, asked });
  }
  return calls;
}
