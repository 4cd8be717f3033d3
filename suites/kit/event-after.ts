// Waiting for one message as it arrives: the first wire event from index `from` on that matches,
// already seen or live (through the session's watch), waiting at most `ms` or until the run ends.
// Nothing is judged on when it comes; the wait only bounds how long a scenario looks.

import type { WireEvent } from '../../results/wire.js';
import type { ScenarioContext } from './scenario.js';

export async function eventAfter(ctx: ScenarioContext, from: number, match: (e: WireEvent) => boolean, ms: number): Promise<WireEvent | undefined> {
  const { session } = ctx;
  const seen = session.events().slice(from).find(match);
  if (seen || !session.watch || ms <= 0) return seen;
  return new Promise((resolve) => {
    const done = (e?: WireEvent) => {
      clearTimeout(timer);
      stop();
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(e);
    };
    const timer = setTimeout(() => done(session.events().slice(from).find(match)), ms);
    const stop = session.watch!((e) => match(e) && done(e));
    const onAbort = () => done();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}
