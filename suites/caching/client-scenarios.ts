// Client-role caching scenario: mcpspec's scripted 2026-07-28 server (suites/client/scripted-server.ts)
// with a tools/list fresh for an hour and list_changed on a listen stream. Judged by client-checks.ts beside it.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_SERVER_INFO } from '../../protocol/meta.js';
import { MODERN } from '../../protocol/versions.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { clientPaceMs, discoverResult, MODERN_VERSION, runScript, SCRIPTED_INFO, TOOL } from '../client/scripted-server.js';

export const LONG_TTL_MS = 3_600_000;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export interface CachingObs extends ClientObs {
  /** tools/list requests: Received seq and arrival time. */
  lists: { seq: number; at: number }[];
  /**
   * How many tools/list requests had arrived when notifications/tools/list_changed went out on a
   * listen stream (clientPaceMs after the first was answered); undefined when it never went out.
   */
  listedBeforeChange?: number;
  /** The client opened a subscriptions/listen stream for toolsListChanged. */
  subscribed: boolean;
}

/**
 * Caching (SEP-2549): tools/list is fresh for an hour (ttlMs 3600000). A client that opens a
 * subscriptions/listen stream for toolsListChanged is told, clientPaceMs after its first tools/list
 * was answered, that the list changed: it may refetch once then (CA-10); refetching a fresh list
 * without such a notification is what CA-04 advises against.
 */
export const cachingServer = clientScenario<CachingObs>({
  id: 'client-caching',
  title: 'a scripted 2026-07-28 server whose tools/list stays fresh for an hour, with list_changed on a listen stream',
  versions: MODERN,
  async run(ctx) {
    const lists: CachingObs['lists'] = [];
    let listedBeforeChange: number | undefined;
    let subscribed = false;
    let firstListed: () => void = () => undefined;
    const listed = new Promise<void>((r) => (firstListed = r));
    const ended = new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true }));
    const meta = { _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
    const log = runScript(ctx.server, {
      modern: true,
      legacy: false,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method === 'server/discover') {
          return { jsonrpc: '2.0', id: req.id, result: discoverResult([MODERN_VERSION], { tools: { listChanged: true }, prompts: {}, resources: {} }, LONG_TTL_MS) };
        }
        if (req.method === 'tools/list') {
          lists.push({ seq: mctx.received.seq, at: mctx.received.at ?? Date.now() });
          // Resolved after this answer is on its way (a macrotask after the write).
          setTimeout(firstListed, 0);
          return { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', tools: [TOOL], ttlMs: LONG_TTL_MS, cacheScope: 'public', ...meta } };
        }
        if (req.method !== 'subscriptions/listen') return undefined;
        const wanted = isObj(req.params.notifications) && req.params.notifications.toolsListChanged === true;
        subscribed ||= wanted;
        const sub = { [SUBSCRIPTION_ID]: req.id };
        async function* stream() {
          yield { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: sub, notifications: wanted ? { toolsListChanged: true } : {} } };
          if (!wanted) return;
          await Promise.race([listed, ended]);
          // A fixed time after the first answer: a client's own refetch (its pace) cannot move it.
          await ctx.server.pause(clientPaceMs(ctx.options.timeoutMs));
          if (ctx.signal.aborted || listedBeforeChange !== undefined) return;
          // Counted, not timed: the write follows this yield with no I/O in between.
          listedBeforeChange = lists.length;
          yield { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: sub } };
          await ended;
        }
        return { scripted: true, sse: true, stream: stream(), response: undefined };
      },
    });
    const observed = await observe(ctx, log);
    return { ...observed, lists, listedBeforeChange, subscribed };
  },
});
