// How a transport answers a request the server sends its client: with what the session's handler
// says, or an error when there is none or it fails. (What a capable client answers is in
// server-requests.ts; transports need only this, so they load without the generators.)

import { errorResponse, type RequestId } from '../protocol/jsonrpc.js';

export type ServerRequestHandler = (req: { id: RequestId; method: string; params?: unknown }) => unknown;

/**
 * The reply to a server->client request: the handler's answer, a -32603 when the handler throws,
 * or -32601 when there is no handler. `undefined` means the handler chose not to answer.
 */
export async function replyToServerRequest(handler: ServerRequestHandler | undefined, req: { id: RequestId; method: string; params?: unknown }): Promise<unknown> {
  if (!handler) return errorResponse(req.id, -32601, `Method not found: ${req.method} (mcpspec client)`);
  try {
    return await handler({ id: req.id, method: req.method, params: req.params });
  } catch (err) {
    return errorResponse(req.id, -32603, `mcpspec handler failed: ${String(err)}`);
  }
}
