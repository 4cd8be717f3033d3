// Cancellation in 2026-07-28 (CN-02, CN-03): a request is surely in flight once the server reported
// progress for it and has not answered it. mcpspec first calls the tools it may call, side by side,
// each with its own progressToken (the baseline: which ones report progress before their response,
// and how long they take). The first such tool is called again and cancelled at its first progress
// notification: stdio: `notifications/cancelled` (sent and fenced, so the server has read it);
// HTTP: the request's SSE stream is closed (the disconnect is the cancellation). Then mcpspec
// watches for anything more about that request for twice the baseline call's duration (at most the
// request timeout, counted from the call's start: a fair window for a response that was on its way),
// and sends a fence.

import { MODERN } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { eventAfter } from '../kit/event-after.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { requestsToTry, type Start } from '../input-required/flows.js';

export interface ModernCancelObs {
  /** Tools called for the baseline. */
  tried: number;
  /** The call cancelled, if a tool reported progress before its response. */
  cancelled?: {
    target: string;
    how: 'notifications/cancelled' | 'stream closed';
    /** The baseline call of the same tool and how long it took. */
    baseline: Exchange;
    /** Whether the cancelled call reported progress before any response (in flight for certain). */
    inFlight: boolean;
    /** Its response was already on its way: it came before the server surely had the cancellation. */
    raced: boolean;
    /** The cancelled call (HTTP: ended by the disconnect). */
    call: Exchange;
    /** stdio: the notification exchange (answered fence included). */
    notice?: Exchange;
    /** How long mcpspec watched for more about the request after the cancellation. */
    windowMs: number;
    /** Messages about the request (its response, its progress) after the server surely had the cancellation. */
    late: WireEvent[];
    /** The fence after the window. */
    fence: Exchange;
  };
}

const MAX_BASELINE = 10;
/** Calls cancelled at most, when a response keeps arriving before the cancellation (a race, not a verdict). */
const MAX_ATTEMPTS = 3;

function progressTokenOf(e: WireEvent): unknown {
  const m = e.message;
  if (e.dir !== 'in' || !isObj(m) || m.method !== 'notifications/progress' || !isObj(m.params)) return undefined;
  return m.params.progressToken;
}

/** A message about request `id` / token `token`: its response or its progress. */
function about(e: WireEvent, id: string, token: string): boolean {
  if (e.dir !== 'in' || e.kind !== 'message' || !isObj(e.message)) return false;
  if (progressTokenOf(e) === token) return true;
  return e.message.id === id && ('result' in e.message || 'error' in e.message);
}

/** An error response saying the request was cancelled (JSON-RPC implementations use -32800 for it). */
export function reportsCancellation(m: Record<string, unknown>): boolean {
  if (!isObj(m.error)) return false;
  return m.error.code === -32800 || (typeof m.error.message === 'string' && /\bcancel/i.test(m.error.message));
}

const baselineToken = (i: number) => `mcpspec-cancel-baseline-${i + 1}`;

/** Whether a progress notification for `token` came before the exchange's response. */
function progressedFirst(ex: Exchange, token: string, events: WireEvent[]): boolean {
  const answered = ex.response !== undefined && ex.seq.length > 1 ? Math.max(...ex.seq) : Infinity;
  return events.some((e) => progressTokenOf(e) === token && e.seq < answered);
}

async function cancelOne(ctx: ScenarioContext, s: Start, baseline: Exchange, n: number): Promise<NonNullable<ModernCancelObs['cancelled']>> {
  const { session, options } = ctx;
  const token = `mcpspec-cancel-${n}`;
  const CANCEL_ID = `mcpspec-cancel-modern-${n}`;
  const timeoutMs = options.toolTimeoutMs ?? options.timeoutMs;
  const giveUp = new AbortController();
  let inFlight = false;
  let settled = false;
  const off = session.watch!((e) => {
    if (!settled && !inFlight && progressTokenOf(e) === token) {
      inFlight = true;
      giveUp.abort();
    }
  });
  const stdio = session.kind === 'stdio';
  // Counted from the call's start: its response can be read in the same chunk as its first progress,
  // after the give-up but before the call returns (then the call itself carries no response).
  const sent = session.events().length;
  const callStart = Date.now();
  let call: Exchange;
  try {
    const params = { ...s.params, _meta: { ...(isObj(s.params._meta) ? s.params._meta : {}), progressToken: token } };
    call = await session.request(s.method, params, { id: CANCEL_ID, timeoutMs, signal: giveUp.signal, cancelSent: stdio });
    settled = true;
  } finally {
    off();
  }
  const notice = inFlight && stdio ? await session.notify('notifications/cancelled', { requestId: CANCEL_ID, reason: 'mcpspec cancels the call while it is in progress' }) : undefined;
  // From here on the server has read the cancellation (stdio: the notification's fence was answered;
  // HTTP: the stream is closed). Watch for anything more about the request, within a fair window.
  const from = session.events().length;
  // A response that came before that was on its way already (CN-04: races are tolerated).
  // One that says it was cancelled was written after the server read the cancellation: no race, a late message.
  const answeredBefore = session.events().slice(sent, from).filter((e) => e.dir === 'in' && isObj(e.message) && e.message.id === CANCEL_ID && ('result' in e.message || 'error' in e.message));
  const told = answeredBefore.filter((e) => reportsCancellation(e.message as Record<string, unknown>));
  const raced = call.response !== undefined || answeredBefore.length > told.length;
  // Until twice the uncancelled call's duration after the call started (at most the timeout), and
  // at least a moment after the cancellation.
  const windowMs = Math.max(200, Math.min(timeoutMs, 2 * baseline.elapsedMs) - (Date.now() - callStart));
  const late: WireEvent[] = [...told];
  if (inFlight && !raced) await eventAfter(ctx, from, (e) => about(e, CANCEL_ID, token), windowMs);
  const fence = await session.fence();
  const fenced = fence.seq.length ? Math.max(...fence.seq) : Infinity;
  late.push(...session.events().slice(from).filter((e) => about(e, CANCEL_ID, token) && e.seq <= fenced));
  return { target: s.target, how: stdio ? 'notifications/cancelled' : 'stream closed', baseline, inFlight, raced, call, notice, windowMs, late, fence };
}

export const modernCancelScenario = scenario<ModernCancelObs>({
  id: 'cancel-modern',
  title: 'tools called with a progressToken; one that reports progress before its response is called again and cancelled at its first progress (stdio: notifications/cancelled; HTTP: its stream closed), then watched and fenced',
  versions: MODERN,
  // It waits out slow calls (a baseline, then twice its length after the cancellation): overlap the rest.
  startEarly: true,
  async run(ctx) {
    const { session, options } = ctx;
    if (!session.watch) return { tried: 0 };
    const { starts } = await requestsToTry(ctx, { toolsOnly: true });
    const tools = starts.filter((s) => s.method === 'tools/call').slice(0, MAX_BASELINE);
    const timeoutMs = options.toolTimeoutMs ?? options.timeoutMs;
    const baselines = await Promise.all(tools.map((s, i) => session.request(s.method, { ...s.params, _meta: { progressToken: baselineToken(i) } }, { timeoutMs })));
    // Candidates: calls that reported progress before answering, the longest gap between the first
    // progress and the response first (the likeliest to be still in flight when cancelled).
    const events = session.events();
    const waited = (i: number) => {
      const first = events.find((e) => progressTokenOf(e) === baselineToken(i));
      const answered = events.find((e) => e.seq === Math.max(...baselines[i].seq));
      return first && answered ? answered.t - first.t : 0;
    };
    const candidates = tools.map((_, i) => i).filter((i) => baselines[i].response !== undefined && progressedFirst(baselines[i], baselineToken(i), events)).sort((a, b) => waited(b) - waited(a));
    if (candidates.length === 0 || ctx.signal.aborted) return { tried: tools.length };
    let cancelled: ModernCancelObs['cancelled'];
    // A race is timing, not a verdict (a stalled reader can take the progress and the response in one
    // read): the candidates are tried in turn, the same one again when there are fewer than the attempts.
    for (let n = 0; n < MAX_ATTEMPTS; n++) {
      if (ctx.signal.aborted) break;
      const i = candidates[n % candidates.length];
      cancelled = await cancelOne(ctx, tools[i], baselines[i], n + 1);
      if (!cancelled.raced && cancelled.inFlight) break;
    }
    return { tried: tools.length, cancelled };
  },
});
