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

/**
 * How long the capable client's legacy session stays open at least: a server may ask its client
 * something on its own clock after initialization (server-everything asks roots/list 350 ms after
 * `notifications/initialized`), and a session that ends sooner on a fast run would see it only in
 * slow runs. Waiting costs no wall time in a run with anything slower beside it.
 */
export const LEGACY_SESSION_MIN_MS = 2_000;

/** Keep the session open until `LEGACY_SESSION_MIN_MS` after `openedAt`, then fence what came meanwhile. */
export async function stayOpen(ctx: ScenarioContext, openedAt: number): Promise<void> {
  const left = LEGACY_SESSION_MIN_MS - (Date.now() - openedAt);
  if (left > 0 && !ctx.signal.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      function done() {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', done);
        resolve();
      }
      ctx.signal.addEventListener('abort', done, { once: true });
    });
  }
  // Whatever the server asked meanwhile was answered before this fence's answer (stdio reads in order).
  if (!ctx.signal.aborted) await ctx.session.fence();
}

export interface Call {
  target: string;
  exchange: Exchange;
  /**
   * Requests the server sent the client while this call was outstanding, of the methods it sent again
   * when the call was repeated alone: one sent on the server's own clock (roots/list some time after
   * initialization, say) lands in whichever call is under way then, so it does not make that call one
   * that asks.
   */
  asked: unknown[];
  /** What arrived during the first call but not again during the repeat (not the call's own). */
  unconfirmed?: unknown[];
}

const isServerRequest = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && typeof e.message.method === 'string' && 'id' in e.message;

/**
 * Legacy: the requests one at a time, so each request the server sends the client belongs to the
 * call it came during, if it sends it again when that call is repeated (each asking call is, once).
 * `meta` gives each its own `_meta` (a progressToken).
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
  for (const [i, c] of calls.entries()) {
    if (c.asked.length === 0 || c.exchange.response === undefined || ctx.signal.aborted) continue;
    const s = starts[i];
    const from = session.events().length;
    const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
    // Without a progressToken: the first call's token is spent (progress checks judge it alone).
    await session.request(s.method, s.params, { timeoutMs });
    const again = new Set(session.events().slice(from).filter(isServerRequest).map((e) => methodOf(e.message)));
    const confirmed = c.asked.filter((m) => again.has(methodOf(m)));
    if (confirmed.length < c.asked.length) c.unconfirmed = c.asked.filter((m) => !again.has(methodOf(m)));
    c.asked = confirmed;
  }
  return calls;
}

const methodOf = (m: unknown) => (isObj(m) ? String(m.method) : '');
