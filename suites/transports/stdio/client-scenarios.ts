// Client-role stdio scenarios: mcpspec's scripted server (suites/client/scripted-server.ts) over
// stdio, its process dying on a request, or logging to its stderr. Judged by client-checks.ts beside it.

import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import { clientScenario } from '../../kit/scenario.js';
import { playScript, type ClientObs } from '../../client/client-run.js';

/**
 * A 2026-07-28 stdio server whose process exits, unanswering, on the first request after
 * server/discover: the client should start it again (IO-06); the lost request may be retried.
 */
export const dyingServer = clientScenario<ClientObs>({
  id: 'client-server-dies',
  title: 'a scripted 2026-07-28 stdio server whose process exits on the first request after server/discover',
  versions: MODERN,
  transports: ['stdio'],
  run: (ctx) => playScript(ctx, { modern: true, legacy: false, dieOn: 1 }),
});

/** The plain dual-era server again, over stdio, logging to its stderr as many servers do. */
export const stderrLogs = clientScenario<ClientObs>({
  id: 'client-stderr',
  title: 'the plain scripted server, over stdio, writing log lines to its stderr',
  versions: ALL_VERSIONS,
  transports: ['stdio'],
  serverStderr: true,
  run: (ctx) => playScript(ctx, { modern: true, legacy: true }),
});
