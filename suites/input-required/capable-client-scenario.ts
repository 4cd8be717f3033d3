// mcpspec as a capable client (elicitation, sampling, roots), on every tool it may call, every prompt
// and the listed resources; each first request carries its own progressToken.
// - 2026-07-28: each input_required flow is driven to its end, then round 1 is retried wrongly on
//   purpose (input-required.ts).
// - 2025-era: the capabilities are declared in initialize and the requests go one at a time, so the
//   server's requests to the client belong to the call they came during (server-requests.ts); the
//   session stays open a little while, for what the server asks on its own clock.
// One scenario (one connection) for all of it: a server without these features costs one list and
// one request per item.

import { ALL_VERSIONS } from '../../protocol/versions.js';
import { scenario } from '../kit/scenario.js';
import { drive, probe, requestsToTry, type Flow } from './flows.js';
import { progressOf, progressToken, type ProgressObs } from '../progress/scenario.js';
import { callOneByOne, LEGACY_CAPABLE_CLIENT, stayOpen, type Call } from '../server-requests/scenario.js';
import { cancelWhileAsked, type CancelObs } from '../cancellation/legacy-scenario.js';

export interface CapableClientObs extends ProgressObs {
  /** 2026-07-28 flows. */
  flows: Flow[];
  /** 2025-era calls. */
  calls: Call[];
  /** Requests tried (tools, prompts, resources). */
  tried: number;
  notTried: string[];
  /** 2025-era: a call cancelled while the server waited for mcpspec's answer. */
  cancel?: CancelObs;
}

export const capableClientScenario = scenario<CapableClientObs>({
  id: 'capable-client',
  title: 'tools, prompts and resources tried by a client that declares elicitation, sampling and roots, each with a progressToken: input_required flows played to the end (2026-07-28), server requests answered (2025)',
  versions: ALL_VERSIONS,
  legacyCapabilities: LEGACY_CAPABLE_CLIENT,
  // Many servers ask on the standalone stream (roots/list after initialization, some a tool's elicitation).
  legacyStandaloneStream: true,
  // It calls every tool one after another, waiting for each, slow ones included: overlap the rest.
  startEarly: true,
  async run(ctx) {
    const { session, options } = ctx;
    const openedAt = Date.now();
    const { starts, notTried } = await requestsToTry(ctx);
    const meta = (i: number) => ({ progressToken: progressToken(i) });
    let flows: Flow[] = [];
    let calls: Call[] = [];
    if (session.era === 'modern') {
      // Flows overlap (distinct ids): a slow one costs its own rounds, not everyone's.
      flows = await Promise.all(starts.map((s, i) => drive(ctx, s.target, s.method, s.params, options.seed + i * 101, meta(i))));
    } else {
      calls = await callOneByOne(ctx, starts, meta);
    }
    const first = session.era === 'modern' ? flows.map((f) => f.rounds[0]) : calls.map((c) => c.exchange);
    const progress = await progressOf(ctx, first.map((exchange, i) => ({ target: starts[i].target, token: progressToken(i), exchange })));
    await Promise.all(flows.map((f) => probe(ctx, f)));
    // The first call that made the server ask something, again, cancelled while it waits.
    const asking = calls.findIndex((c) => c.asked.length > 0 && c.exchange.response !== undefined);
    const askedMethods = new Set(asking >= 0 ? calls[asking].asked.map((m) => String((m as { method?: unknown }).method)) : []);
    const cancel = asking >= 0 ? await cancelWhileAsked(ctx, starts[asking], askedMethods, calls[asking].exchange.elapsedMs) : undefined;
    if (session.era === 'legacy') await stayOpen(ctx, openedAt);
    return { ...progress, flows, calls, tried: starts.length, notTried, cancel };
  },
});
