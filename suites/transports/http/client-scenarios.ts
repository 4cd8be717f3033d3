// Client-role Streamable HTTP scenarios: mcpspec's scripted server (suites/client/scripted-server.ts)
// answering on SSE streams, closing them early for the client to resume (2025-11-25), or breaking
// them before the answer (2026-07-28). Judged by client-checks.ts beside it.

import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import { clientScenario } from '../../kit/scenario.js';
import { playScript, type ClientObs } from '../../client/client-run.js';

/** The plain dual-era server again, every answer an SSE stream (priming event, comment line, then the message). */
export const sseAnswers = clientScenario<ClientObs>({
  id: 'client-sse',
  title: 'the plain scripted server answering every request as an SSE stream with a comment line',
  versions: ALL_VERSIONS,
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: true, legacy: true, sse: true }),
});

/** The `retry` the polling server names (long enough that an early reconnection shows). */
export const POLL_RETRY_MS = 400;
/** How many answers after initialize come by polling. */
export const POLL_COUNT = 2;

/**
 * A 2025-11-25 server that polls (HL-04, SEP-1699): the first answers after initialize come on SSE
 * streams that name `retry` and an event id and then close; each answer waits for the client's GET
 * with that Last-Event-ID.
 */
export const pollingServer = clientScenario<ClientObs>({
  id: 'client-sse-polling',
  title: 'a 2025-11-25 scripted server that closes its first answers\' SSE streams early (retry, event id), to be resumed with GET and Last-Event-ID',
  versions: ['2025-11-25'],
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, poll: { retryMs: POLL_RETRY_MS, count: POLL_COUNT } }),
});

/** How many requests the broken-stream server loses. */
export const BROKEN_COUNT = 1;

/**
 * A 2026-07-28 server whose first answer stream (after server/discover) closes before the answer,
 * with no event id: the request is lost, and the client must send it again with a new id (HM-05).
 */
export const brokenStreamServer = clientScenario<ClientObs>({
  id: 'client-broken-stream',
  title: 'a scripted 2026-07-28 server that closes the answer stream of the first request after server/discover before answering it',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: true, legacy: false, breakStreams: BROKEN_COUNT }),
});
