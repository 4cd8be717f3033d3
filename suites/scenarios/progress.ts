// Progress (PR-01): every tool, prompt and resource mcpspec may try is asked for with its own
// `_meta.progressToken`; afterwards a fence shows any notification sent after a response (stdio
// keeps order). The notifications are read from the session's recording.

import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../exchange.js';
import type { Exchange } from '../ports.js';
import { scenario } from '../scenario.js';
import { requestsToTry } from './input-required.js';

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

export const progressScenario = scenario<ProgressObs>({
  id: 'progress',
  title: 'tools, prompts and resources requested with a progressToken each; the progress notifications that come back',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const { session, options } = ctx;
    const { starts } = await requestsToTry(ctx);
    const requests = await Promise.all(
      starts.map(async (s, i) => {
        const token = `mcpspec-progress-${i + 1}`;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        const exchange = await session.request(s.method, { ...s.params, _meta: { progressToken: token } }, { timeoutMs });
        return { target: s.target, token, exchange };
      }),
    );
    // Anything the server sends for a request after answering it comes before this answer on stdio.
    await session.fence();
    const answeredAt: Record<string, number> = {};
    for (const r of requests) if (r.exchange.response !== undefined && r.exchange.seq.length > 1) answeredAt[r.token] = Math.max(...r.exchange.seq);
    const notifications = session.events().filter(isProgress).map((e) => ({ seq: e.seq, params: isObj((e.message as { params?: unknown }).params) ? ((e.message as { params: Record<string, unknown> }).params) : {} }));
    return { requests, notifications, answeredAt };
  },
});
