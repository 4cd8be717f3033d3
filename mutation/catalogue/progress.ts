// Mutations of the progress area (requirements digest §11 PR-01): notifications/progress only for
// tokens a request gave and is still active, with strictly increasing `progress`, stopping once the
// request is answered.

import { isResponse } from '../../protocol/jsonrpc.js';
import { isObj, onNotification } from '../edits.js';
import { mutation, SERVER_ANY as server, type Mutation, type MutationContext } from '../mutation.js';

const PROGRESS = 'notifications/progress';

function tokenKey(token: unknown): string {
  return `${typeof token}:${String(token)}`;
}

/** The last progress value the server sent for each token. */
function lastProgress(ctx: MutationContext): Map<string, { progress: number; total?: number }> {
  if (!(ctx.state.progress instanceof Map)) ctx.state.progress = new Map();
  return ctx.state.progress as Map<string, { progress: number; total?: number }>;
}

function progressToken(ctx: MutationContext): string | number | undefined {
  const meta = ctx.request?.params._meta;
  const token = isObj(meta) ? meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

export const PROGRESS_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'progress.not-increasing',
    requirements: ['PR-01'],
    description: 'every notifications/progress after the first for a token repeats the previous progress value instead of a larger one',
    ...onNotification([PROGRESS], (m, ctx) => {
      if (!isObj(m.params) || typeof m.params.progress !== 'number') return undefined;
      const key = tokenKey(m.params.progressToken);
      const before = lastProgress(ctx).get(key);
      lastProgress(ctx).set(key, { progress: m.params.progress });
      if (before === undefined || m.params.progress <= before.progress) return undefined;
      m.params.progress = before.progress;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'progress.unknown-token',
    requirements: ['PR-01'],
    description: 'notifications/progress carry a token no request gave (numeric tokens plus 100000, string tokens suffixed "-server")',
    ...onNotification([PROGRESS], (m) => {
      if (!isObj(m.params)) return undefined;
      const token = m.params.progressToken;
      if (typeof token === 'number') m.params.progressToken = token + 100000;
      else if (typeof token === 'string') m.params.progressToken = `${token}-server`;
      else return undefined;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'progress.token-type',
    requirements: ['PR-01'],
    description: 'notifications/progress echo a numeric progressToken as a string (and a numeric-looking string token as a number)',
    ...onNotification([PROGRESS], (m) => {
      if (!isObj(m.params)) return undefined;
      const token = m.params.progressToken;
      if (typeof token === 'number') m.params.progressToken = String(token);
      else if (typeof token === 'string' && /^\d+$/.test(token)) m.params.progressToken = Number(token);
      else return undefined;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'progress.after-response',
    requirements: ['PR-01'],
    description: 'right after the answer to a request that gave a progressToken, one more notifications/progress for that token follows (progress one above the last)',
    toClient(m, ctx) {
      if (m.method === PROGRESS && !('id' in m) && isObj(m.params) && typeof m.params.progress === 'number') {
        lastProgress(ctx).set(tokenKey(m.params.progressToken), { progress: m.params.progress, total: typeof m.params.total === 'number' ? m.params.total : undefined });
        return undefined;
      }
      if (!isResponse(m)) return undefined;
      const token = progressToken(ctx);
      if (token === undefined) return undefined;
      const last = lastProgress(ctx).get(tokenKey(token));
      const params: Record<string, unknown> = { progressToken: token, progress: (last?.progress ?? 0) + 1 };
      if (last?.total !== undefined) params.total = Math.max(last.total, params.progress as number);
      return [m, { jsonrpc: '2.0', method: PROGRESS, params }];
    },
  }),
];
