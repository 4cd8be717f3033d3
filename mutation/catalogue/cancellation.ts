// Mutations of the cancellation area (requirements digest §11 CN-01, CN-03, CN-04; SB-08 for
// server-sent cancellations in the modern era): what a server still sends after a request was
// cancelled, and cancellations a server sends for requests that are not its own or not in flight.
// A stdio server's late messages are made by the proxy when the client's notifications/cancelled goes
// by (on Streamable HTTP the modern cancellation closes the stream, so nothing could follow).

import { isRequest, isResponse } from '../../protocol/jsonrpc.js';
import { isObj, onAnswer } from '../edits.js';
import { mutation, SERVER_ANY as server, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;
interface InFlight {
  id: string | number;
  method: string;
  progressToken?: string | number;
}

function key(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

function inFlight(ctx: MutationContext): Map<string, InFlight> {
  if (!(ctx.state.inFlight instanceof Map)) ctx.state.inFlight = new Map<string, InFlight>();
  return ctx.state.inFlight as Map<string, InFlight>;
}

function lastProgress(ctx: MutationContext): Map<string, number> {
  if (!(ctx.state.progress instanceof Map)) ctx.state.progress = new Map<string, number>();
  return ctx.state.progress as Map<string, number>;
}

/** Keeps the book of the client's requests still unanswered (and the progress sent for them). */
function watchToClient(m: Obj, ctx: MutationContext): undefined {
  if (isResponse(m as unknown)) inFlight(ctx).delete(key(m.id));
  else if (m.method === 'notifications/progress' && isObj(m.params) && typeof m.params.progress === 'number') lastProgress(ctx).set(key(m.params.progressToken), m.params.progress);
  return undefined;
}

/**
 * Sees the client's requests go by, and for a notifications/cancelled naming one still in flight
 * (not a listen stream: ending those is the subscriptions area's) lets `late` say what the server sends.
 */
function afterCancel(late: (req: InFlight, ctx: MutationContext) => Obj | undefined): Pick<MutationHooks, 'toServer' | 'toClient'> {
  return {
    toServer(m, ctx) {
      if (isRequest(m)) {
        const meta = isObj(m.params) && isObj(m.params._meta) ? m.params._meta : {};
        const token = meta.progressToken;
        inFlight(ctx).set(key(m.id), { id: m.id, method: m.method, progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined });
        return undefined;
      }
      if (m.method !== 'notifications/cancelled' || 'id' in m || !isObj(m.params)) return undefined;
      const req = inFlight(ctx).get(key(m.params.requestId));
      if (!req || req.method === 'subscriptions/listen') return undefined;
      const message = late(req, ctx);
      if (!message) return undefined;
      ctx.reply(message);
      return [m];
    },
    toClient: watchToClient,
  };
}

const cancelledError = (req: InFlight): Obj => ({ jsonrpc: '2.0', id: req.id, error: { code: -32800, message: 'Request cancelled' } });

export const CANCELLATION_MUTATIONS: Mutation[] = [
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['stdio'],
    id: 'cancellation.answers-cancelled-request',
    requirements: ['CN-03'],
    related: ['CN-04'],
    description: 'a request the client cancelled with notifications/cancelled while in flight still gets an answer (error -32800 "Request cancelled")',
    ...afterCancel((req) => cancelledError(req)),
  }),
  mutation({
    role: 'server',
    eras: ['legacy'],
    transports: ['stdio'],
    id: 'cancellation.legacy-answers-cancelled-request',
    requirements: ['CN-04'],
    description: 'in a legacy session, a request the client cancelled while in flight still gets an answer (error -32800 "Request cancelled")',
    ...afterCancel((req) => cancelledError(req)),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['stdio'],
    id: 'cancellation.progress-after-cancel',
    requirements: ['CN-03'],
    related: ['PR-01'],
    description: 'a cancelled request that gave a progressToken gets one more notifications/progress (one above the last) after its notifications/cancelled',
    ...afterCancel((req, ctx) => {
      if (req.progressToken === undefined) return undefined;
      const progress = (lastProgress(ctx).get(key(req.progressToken)) ?? 0) + 1;
      return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: req.progressToken, progress } };
    }),
  }),
  mutation({
    ...server,
    id: 'cancellation.server-cancels-answered',
    requirements: ['CN-01'],
    related: ['SB-08'],
    description: "right after answering a tools/call, the server sends notifications/cancelled naming that (client's, already answered) request id",
    ...onAnswer(['tools/call'], (m) => (m.id === undefined || m.id === null ? undefined : [m, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: m.id, reason: 'cleanup after completion' } }])),
  }),
];
