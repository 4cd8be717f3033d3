// Cancellation of a request in flight (legacy, CN-01, CN-04): a call during which the server asks the
// client something is in flight for certain until mcpspec answers. mcpspec cancels it
// (notifications/cancelled) before answering. stdio: after each answer it fences, until a fence comes
// back with no new question from the server: by then the server has read the cancellation and the
// answers, and whatever it does for the cancelled call has shown. HTTP: the call's stream is waited
// for (a server that drops the call ends it).

import { isObj, type RequestId } from '../../protocol/jsonrpc.js';
import type { Exchange } from '../ports/session.js';
import type { ScenarioContext } from '../kit/scenario.js';
import type { Start } from '../input-required/flows.js';

export interface CancelObs {
  target: string;
  /** The cancelled call: a response in it came after the cancellation was sent. */
  call: Exchange;
  /** What the server asked while the call was in flight. */
  asked: string;
  /**
   * HTTP: the stream that question came on (the call's own, or the standalone GET stream). Asked
   * again when the same call is made again, it belongs to the call.
   */
  askedOn?: 'request' | 'get';
  /** The fences after the cancellation; the last one shows the server still serves. */
  fences: Exchange[];
}

const MAX_ROUNDS = 8;

/**
 * Cancel `start` while the server waits for the client; undefined when it did not ask this time.
 * `methods`: what the call asked before (again when repeated): a request of another method (one the
 * server sends on its own clock) is answered as usual and does not trigger the cancellation.
 * `baselineMs`: how long the call took uncancelled; on stdio its answer is waited for until twice
 * that after the cancellation (at most the timeout), so a server that answers a cancelled call after
 * some work of its own is caught in every run, not only in slow ones.
 */
export async function cancelWhileAsked(ctx: ScenarioContext, start: Start, methods: ReadonlySet<string>, baselineMs: number): Promise<CancelObs | undefined> {
  const { session, options } = ctx;
  if (!ctx.whenAsked) return undefined;
  const id: RequestId = 'mcpspec-cancelled-1';
  let first: string | undefined;
  let firstId: RequestId | undefined;
  let seen = 0;
  let answered = 0;
  let wake: (() => void) | undefined;
  ctx.whenAsked({
    before: async (req) => {
      seen++;
      if (first !== undefined || !methods.has(req.method)) return;
      first = req.method;
      firstId = req.id;
      await session.notify('notifications/cancelled', { requestId: id, reason: 'mcpspec cancels the call while the server waits for it' });
    },
    after: (req) => {
      answered++;
      // Only a question of the call's own kind means it is in flight for certain.
      if (first !== undefined || methods.has(req.method)) wake?.();
    },
  });
  const giveUp = new AbortController();
  const timeoutMs = start.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
  const call = session.request(start.method, start.params, { id, timeoutMs, signal: giveUp.signal, cancelSent: true });
  const settled = call.then(() => 'settled' as const);
  /** Until every question seen so far is answered (or the call ends). */
  const allAnswered = async () => {
    while (answered < seen) if ((await Promise.race([new Promise<'answered'>((r) => (wake = () => r('answered'))), settled])) === 'settled') return;
  };
  const fences: Exchange[] = [];
  try {
    const firstAnswer = new Promise<'answered'>((r) => (wake = () => r('answered')));
    if ((await Promise.race([firstAnswer, settled])) === 'settled') return undefined; // answered without asking this time
    const cancelledAt = Date.now();
    if (session.kind === 'http') {
      // HTTP: the call's own stream carries its questions and its end; nothing orders it against a
      // fence on another request, so the call is waited for (its stream ends, or its timeout passes).
      await settled;
      fences.push(await session.fence());
    } else {
      // stdio: two fences in a row with no new question; a server may write what it does after a
      // message it read just before a fence only after answering that fence.
      let quiet = 0;
      for (let round = 0; round < MAX_ROUNDS && quiet < 2; round++) {
        const before = seen;
        fences.push(await session.fence());
        if (!fences[fences.length - 1].response) break;
        if (seen === before && answered === seen) quiet++;
        else {
          quiet = 0;
          await allAnswered();
        }
      }
      // A late answer may need the work the server does for the call (its own timing, not the fences').
      const windowMs = Math.min(timeoutMs, 2 * Math.max(baselineMs, 50)) - (Date.now() - cancelledAt);
      if (windowMs > 0 && fences[fences.length - 1]?.response) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([settled, new Promise((r) => (timer = setTimeout(r, windowMs)))]);
        clearTimeout(timer);
      }
    }
  } finally {
    ctx.whenAsked(undefined);
    giveUp.abort();
  }
  const obs: CancelObs = { target: start.target, call: await call, asked: first ?? '?', fences };
  if (session.kind === 'http' && first !== undefined) {
    const question = session.events().find((e) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.method === first && e.message.id === firstId);
    obs.askedOn = question?.data?.stream === 'get' ? 'get' : 'request';
  }
  return obs;
}
