// Client-role lifecycle scenarios: mcpspec plays its scripted server (suites/client/scripted-server.ts)
// speaking one era, or bent at initialize and version negotiation, and judges the client on it
// (client-checks.ts beside it). The plain modern and legacy servers are also the scenarios of other
// areas' client checks (meta, server-requests, tasks, transports/http).

import { ALL_VERSIONS, MODERN } from '../../protocol/versions.js';
import type { ScriptedReply } from '../ports/scripted-server.js';
import { clientScenario } from '../kit/scenario.js';
import { playScript, type ClientObs } from '../client/client-run.js';

/** A modern-only 2026-07-28 server: server/discover, per-request _meta, initialize refused. */
export const modernServer = clientScenario<ClientObs>({
  id: 'client-modern',
  title: 'a modern-only 2026-07-28 scripted server (server/discover, per-request _meta)',
  versions: MODERN,
  run: (ctx) => playScript(ctx, { modern: true, legacy: false }),
});

/**
 * A legacy-only server: server/discover is an unknown method (-32601), initialize negotiates, the
 * initialize answer is held a fixed time from its arrival (clientPaceMs: a client that does not
 * wait for it shows, whatever its pace), and the first request after notifications/initialized is
 * answered only after the server has pinged the client and asked what it declared (roots, sampling,
 * elicitation).
 */
export const legacyServer = clientScenario<ClientObs>({
  id: 'client-legacy',
  title: 'a legacy-only scripted server (discover -32601, initialize, server-to-client requests)',
  versions: ALL_VERSIONS,
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, holdInitialize: true, serverRequests: true }),
});

/** How a 1.x SDK server refuses a request outside a session: 400, -32000, a null id (no modern error). */
const SDK1_REFUSAL: ScriptedReply = { scripted: true, response: { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }, status: 400 };

/**
 * A legacy-only HTTP server shaped like the 1.x SDK's: anything but initialize outside a session
 * (server/discover and every modern request) gets 400 with -32000 and a null id. No modern error:
 * a client that tried 2026-07-28 first falls back (ED-04).
 */
export const sdk1LegacyServer = clientScenario<ClientObs>({
  id: 'client-legacy-400',
  title: 'a legacy-only HTTP server refusing modern requests as the 1.x SDK does (400, -32000, null id)',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, refuseOutsideSession: SDK1_REFUSAL }),
});

/** A protocol version no MCP revision has: no client can support it. */
export const UNSUPPORTED_VERSION = '2024-01-01';

/**
 * A legacy-only server that answers every initialize with a protocolVersion no client supports
 * (LC-04): the client should not go on with that session.
 */
export const unsupportedVersionServer = clientScenario<ClientObs>({
  id: 'client-unsupported-version',
  title: `a legacy-only scripted server that answers initialize with protocolVersion ${UNSUPPORTED_VERSION}, a version no client supports`,
  versions: ALL_VERSIONS,
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, initializeVersion: UNSUPPORTED_VERSION }),
});

/** The newest legacy version the scripted server serves. */
export const NEWEST_LEGACY = '2025-11-25';

/**
 * A legacy-only server that answers every initialize with the newest legacy version: a client that
 * offered an older one and goes on with it supports it, so it should have offered it (LC-02).
 */
export const newestVersionServer = clientScenario<ClientObs>({
  id: 'client-newest-version',
  title: `a legacy-only scripted server that answers every initialize with protocolVersion ${NEWEST_LEGACY}, whatever was offered`,
  versions: ALL_VERSIONS,
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, initializeVersion: NEWEST_LEGACY }),
});

/** Every modern request refused with -32022, naming only legacy versions: a counter-offer. */
export const counterOffer = clientScenario<ClientObs>({
  id: 'client-counteroffer',
  title: 'a scripted server that answers modern requests with -32022 and a list of other versions',
  versions: MODERN,
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, counterOffer: true }),
});
