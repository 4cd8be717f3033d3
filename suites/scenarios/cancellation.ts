// Cancellation of a request in flight (legacy, CN-01, CN-04): a call during which the server asks the
// client something is in flight for certain until mcpspec answers. mcpspec cancels it
// (notifications/cancelled) before answering; after each answer it fences, until a fence comes back
// with no new question from the server: by then the server has read the cancellation and the
// answers, and whatever it does for the cancelled call has shown.

import type { RequestId } from '../../protocol/jsonrpc.js';
import type { Exchange } from '../ports.js';
import type { ScenarioContext } from '../scenario.js';
import type { Start } from './input-required.js';

export interface CancelObs {
  target: string;
  /** The cancelled call: a response in it came after the cancellation was sent. */
  call: Exchange;
  /** What the server asked while the call was in flight. */
  asked: string;
  /** The fences after the cancellation; the last one shows the server still serves. */
  fences: Exchange[];
}

const MAX_ROUNDS = 5;

/** Cancel `start` while the server waits for the client; undefined when it did not ask this time. */
export async function cancelWhileAsked(ctx: ScenarioContext, start: Start): Promise<CancelObs | undefined> {
  const { session, options } = ctx;
  if (!ctx.whenAsked) return undefined;
  const id: RequestId = 'mcpspec-cancelled-1';
  let first: string | undefined;
  let answered = 0;
  let wake: (() => void) | undefined;
  const nextAnswer = () => new Promise<void>((r) => (wake = r));
  let waiting = nextAnswer();
  ctx.whenAsked({
    before: async (req) => {
      if (first !== undefined) return;
      first = req.method;
      await session.notify('notifications/cancelled', { requestId: id, reason: 'mcpspec cancels the call while the server waits for it' });
    },
    after: () => {
      answered++;
      wake?.();
    },
  });
  const giveUp = new AbortController();
  const timeoutMs = start.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
  const call = session.request(start.method, start.params, { id, timeoutMs, signal: giveUp.signal, cancelSent: true });
  const settled = call.then(() => 'settled' as const);
  const fences: Exchange[] = [];
  try {
    if ((await Promise.race([waiting.then(() => 'answered' as const), settled])) === 'settled') return undefined; // answered without asking this time
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const before = answered;
      waiting = nextAnswer();
      fences.push(await session.fence());
      if (answered === before || !fences[fences.length - 1].response) break;
      // The server asked again: let that answer go out, then fence again.
      await Promise.race([waiting, settled]);
    }
  } finally {
    ctx.whenAsked(undefined);
    giveUp.abort();
  }
  return { target: start.target, call: await call, asked: first ?? '?', fences };
}
