// Whether a mutation would change anything in a recorded run, without running it: the baseline's
// recording is fed through the mutator, session by session. The score uses it to skip runs of
// mutations that cannot apply (a modern-only rule on a legacy-only server, an SSE rule on a server
// that never streams). Mutations of HTTP heads are never decided here: the recording keeps no full
// answers to feed them, so those always run; nor is the end of a stdio server's input.

import type { Role, TransportKind } from '../results/check-record.js';
import type { WireEvent } from '../results/wire.js';
import type { Mutation } from './mutation.js';
import { Mutator } from './mutator.js';

export function decidableOffline(m: Mutation): boolean {
  return !m.httpAnswer && !m.httpAsk && !m.stdinEnd;
}

/** True when some recorded message would be changed by the mutation (role: the side under test). */
export function wouldApply(m: Mutation, events: WireEvent[], role: Role, transport: TransportKind): boolean {
  const sessions = new Map<string, Mutator>();
  for (const e of events) {
    if (e.kind !== 'message' || e.message === undefined || (e.dir !== 'in' && e.dir !== 'out')) continue;
    const key = e.source ?? '';
    let mutator = sessions.get(key);
    if (!mutator) sessions.set(key, (mutator = new Mutator(m, transport)));
    // From mcpspec's side of the wire: a server target receives what mcpspec sends ('out').
    const toServer = role === 'server' ? e.dir === 'out' : e.dir === 'in';
    const message = structuredClone(e.message);
    if (toServer) mutator.toServer(message);
    else {
      mutator.toClient(message, mutator.requestFor(message));
      mutator.settle(message);
      if (transport === 'stdio' && m.stdoutLine) mutator.stdoutLine(JSON.stringify(message), mutator.requestFor(message));
    }
    mutator.takeReplies();
    if (mutator.applied > 0) return true;
  }
  return false;
}
