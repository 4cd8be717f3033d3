// Progress (PR-01): every first request of the capable-client scenario carries its own
// `_meta.progressToken`; afterwards a fence shows any notification sent after a response (stdio
// keeps order). The notifications are read from the session's recording.

import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import type { ScenarioContext } from '../kit/scenario.js';

export interface Tokened {
  target: string;
  token: string;
  exchange: Exchange;
}

export interface ProgressObs {
  requests: Tokened[];
  /** Every notifications/progress the session received, in order, with its recording seq. */
  notifications: { seq: number; params: Record<string, unknown> }[];
  /** The recording seq of each request's response (absent: never answered). */
  answeredAt: Record<string, number>;
}

const isProgress = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.method === 'notifications/progress' && !('id' in e.message);

/** The token of the i-th request of a run. */
export const progressToken = (i: number) => `mcpspec-progress-${i + 1}`;

/** After the requests: a fence (late notifications show before its answer on stdio), then what came back. */
export async function progressOf(ctx: ScenarioContext, requests: Tokened[]): Promise<ProgressObs> {
  const { session } = ctx;
  await session.fence();
  const answeredAt: Record<string, number> = {};
  for (const r of requests) if (r.exchange.response !== undefined && r.exchange.seq.length > 1) answeredAt[r.token] = Math.max(...r.exchange.seq);
  const notifications = session.events().filter(isProgress).map((e) => ({ seq: e.seq, params: isObj((e.message as { params?: unknown }).params) ? (e.message as { params: Record<string, unknown> }).params : {} }));
  return { requests, notifications, answeredAt };
}
