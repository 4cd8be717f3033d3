import { MCPSPEC_INFO } from '../../protocol/meta.js';
import { LEGACY } from '../../protocol/versions.js';
import type { Exchange } from '../ports.js';
import { scenario } from '../scenario.js';

export interface CounterofferObs {
  initialize: Exchange;
}

/** A version no server supports. */
export const BOGUS_VERSION = '1900-01-01';

/** initialize with a version no server supports, on a fresh connection. */
export const legacyCounteroffer = scenario<CounterofferObs>({
  id: 'lifecycle.counteroffer',
  title: 'initialize with an unknown protocol version',
  versions: LEGACY,
  async run({ openRaw }) {
    const target = await openRaw();
    const msg = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: BOGUS_VERSION, capabilities: {}, clientInfo: MCPSPEC_INFO } };
    return { initialize: await target.send(msg, { expectId: 1 }) };
  },
});
