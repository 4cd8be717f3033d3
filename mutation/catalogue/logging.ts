// Mutations of the logging area (requirements digest §11 LG-01, LG-02): modern requests opt into
// notifications/message one by one with `_meta["io.modelcontextprotocol/logLevel"]`; legacy sessions
// set a session-wide level with logging/setLevel. The mutations add the log messages a buggy server
// would send (the server's own logging is left alone).

import { isObj, onAnswer, onError } from '../edits.js';
import { withHttpStatus } from './input-required.js';
import { mutation, SERVER_LEGACY as legacy, SERVER_MODERN as modern, type Emitted, type Mutation, type MutationContext } from '../mutation.js';

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Requests that do work a server might log about (not the handshake, not listen streams). */
const WORK = ['tools/call', 'tools/list', 'resources/read', 'resources/list', 'prompts/get', 'prompts/list', 'completion/complete'];

function log(level: string, data: string): Emitted {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'server', data } };
}

/** The level the request asked for (a valid one), if any. */
function requestedLevel(ctx: MutationContext): string | undefined {
  const meta = ctx.request?.params._meta;
  const level = isObj(meta) ? meta[LOG_LEVEL] : undefined;
  return typeof level === 'string' && LEVELS.includes(level) ? level : undefined;
}

function lacksLevel(ctx: MutationContext): boolean {
  const meta = ctx.request?.params._meta;
  return !isObj(meta) || !(LOG_LEVEL in meta);
}

export const LOGGING_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'logging.without-log-level',
    requirements: ['LG-01'],
    description: 'before answering a modern request that set no logLevel, the server sends an info notifications/message about it',
    ...onAnswer(WORK, (m, ctx) => (lacksLevel(ctx) ? [log('info', `handling ${ctx.request?.method}`), m] : undefined)),
  }),
  mutation({
    ...modern,
    id: 'logging.below-level',
    requirements: ['LG-01'],
    description: 'before answering a request that set a logLevel above debug, the server sends a notifications/message one level below it',
    ...onAnswer(WORK, (m, ctx) => {
      const level = requestedLevel(ctx);
      if (level === undefined || level === 'debug') return undefined;
      return [log(LEVELS[LEVELS.indexOf(level) - 1], `detail of ${ctx.request?.method}`), m];
    }),
  }),
  mutation({
    ...modern,
    id: 'logging.after-response',
    requirements: ['LG-01'],
    description: 'right after the answer to a request that set a logLevel, a notifications/message at that level follows it',
    ...onAnswer(WORK, (m, ctx) => {
      const level = requestedLevel(ctx);
      return level === undefined ? undefined : [m, log(level, `${ctx.request?.method} done`)];
    }),
  }),
  mutation({
    ...modern,
    id: 'logging.set-level-served-modern',
    requirements: ['LG-01'],
    related: ['VN-07'],
    description: 'logging/setLevel (removed in 2026-07-28) sent with the modern _meta gets an empty success instead of -32601',
    ...withHttpStatus(200, onError(['logging/setLevel'], (_e, _ctx, m) => {
      delete m.error;
      m.result = { resultType: 'complete' };
      return true;
    })),
  }),
  mutation({
    ...modern,
    id: 'logging.undeclared-capability',
    requirements: ['LG-01'],
    description: 'a server whose server/discover capabilities lack logging still answers a request that set a logLevel with a notifications/message at that level first',
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'server/discover' && isObj(m.result.capabilities)) {
        ctx.state.declaresLogging = 'logging' in m.result.capabilities;
        return undefined;
      }
      const level = requestedLevel(ctx);
      if (ctx.state.declaresLogging !== false || level === undefined || !WORK.includes(ctx.request?.method ?? '') || !('id' in m) || 'method' in m) return undefined;
      return [log(level, `handling ${ctx.request?.method}`), m];
    },
  }),
  mutation({
    ...legacy,
    id: 'logging.legacy-below-set-level',
    requirements: ['LG-02'],
    description: 'right after accepting logging/setLevel (above debug), the server sends a notifications/message one level below the level set',
    ...onAnswer(['logging/setLevel'], (m, ctx) => {
      const level = ctx.request?.params.level;
      if (!isObj(m.result) || typeof level !== 'string' || !LEVELS.includes(level) || level === 'debug') return undefined;
      return [m, log(LEVELS[LEVELS.indexOf(level) - 1], 'below the level set')];
    }),
  }),
];
