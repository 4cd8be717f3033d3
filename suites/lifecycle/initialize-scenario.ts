import { LEGACY_CAPABLE_CLIENT } from '../server-requests/scenario.js';
import { isObj } from '../../protocol/jsonrpc.js';
import { LEGACY } from '../../protocol/versions.js';
import type { Exchange, UninitializedSession } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';

export interface HandshakeObs {
  initialize: Exchange;
  /** Messages the server sent after the initialize response and before a ping sent ahead of `notifications/initialized` was answered. */
  beforeInitialized: unknown[];
  pingBeforeInitialized: Exchange;
  ping: Exchange;
}

/** Legacy handshake: initialize, then (before notifications/initialized) a ping as a fence, then ping again. */
export const legacyHandshake = scenario<HandshakeObs>({
  id: 'lifecycle.handshake',
  title: 'initialize, the gap before notifications/initialized, and ping',
  versions: LEGACY,
  skipInitialized: true,
  // Offering what a server may ask for (roots, sampling, elicitation) gives it the chance to ask too early (LC-06).
  legacyCapabilities: LEGACY_CAPABLE_CLIENT,
  async run({ session }) {
    const legacy = session as UninitializedSession;
    // ping is the one request allowed before initialized (LC-06): its answer marks how far the
    // server had got, so whatever it sent before that answer came before initialized.
    const pingBeforeInitialized = await session.request('ping');
    const events = session.events();
    const id = session.handshake.id;
    const isAnswer = (m: unknown, want: unknown) => isObj(m) && m.id === want && ('result' in m || 'error' in m);
    const from = events.findIndex((e) => e.dir === 'in' && e.kind === 'message' && isAnswer(e.message, id));
    const to = events.findIndex((e) => e.dir === 'in' && e.kind === 'message' && isAnswer(e.message, pingBeforeInitialized.id));
    const beforeInitialized = events
      .slice(from + 1, to < 0 ? undefined : to)
      .filter((e) => e.dir === 'in' && e.kind === 'message')
      .map((e) => e.message);
    await legacy.sendInitialized();
    const ping = await session.request('ping');
    return { initialize: session.handshake, beforeInitialized, pingBeforeInitialized, ping };
  },
});
