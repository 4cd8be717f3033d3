import { MCPSPEC_INFO } from '../../protocol/meta.js';
import { LEGACY } from '../../protocol/versions.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export interface CounterofferObs {
  initialize: Exchange;
  /** initialize asking for the counter-offered version by name, on another fresh connection. */
  takenUp?: { version: string; initialize: Exchange };
}

/** A version no server supports. */
export const BOGUS_VERSION = '1900-01-01';

const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: MCPSPEC_INFO } });

/**
 * initialize with a version no server supports, on a fresh connection; then, as a client that knows
 * the offered version would, initialize asking for that version (LC-03: the offer is one it supports).
 */
export const legacyCounteroffer = scenario<CounterofferObs>({
  id: 'lifecycle.counteroffer',
  title: 'initialize with an unknown protocol version, then with the version offered instead',
  versions: LEGACY,
  async run({ openRaw }) {
    const first = await (await openRaw()).send(initialize(BOGUS_VERSION), { expectId: 1 });
    const offered = (first.response as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
    if (typeof offered !== 'string' || offered === BOGUS_VERSION) return { initialize: first };
    return { initialize: first, takenUp: { version: offered, initialize: await (await openRaw()).send(initialize(offered), { expectId: 1 }) } };
  },
});
