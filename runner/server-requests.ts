// Answers to requests a legacy server sends its client (roots/list, sampling, elicitation, ping).

import { errorResponse, type RequestId } from '../protocol/jsonrpc.js';

type Handler = (req: { id: RequestId; method: string; params?: unknown }) => unknown;

/**
 * The reply to a server->client request: the handler's answer, a -32603 when the handler throws,
 * or -32601 when there is no handler. `undefined` means the handler chose not to answer.
 */
export async function replyToServerRequest(handler: Handler | undefined, req: { id: RequestId; method: string; params?: unknown }): Promise<unknown> {
  if (!handler) return errorResponse(req.id, -32601, `Method not found: ${req.method} (mcpspec client)`);
  try {
    return await handler({ id: req.id, method: req.method, params: req.params });
  } catch (err) {
    return errorResponse(req.id, -32603, `mcpspec handler failed: ${String(err)}`);
  }
}
