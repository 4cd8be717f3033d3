// Answers to requests a legacy server sends its client (roots/list, sampling, elicitation, ping).

import { inputResponse } from '../arbitraries/input-responses.js';
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

/** The client capability a server-to-client request needs (LC-07). */
const NEEDS: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/**
 * mcpspec as a correct legacy client: `ping` gets `{}`; a request for a capability the session
 * declared gets a result generated from the schema of its result type (an elicitation's content
 * from its own requestedSchema); anything else gets -32601.
 */
export function capableClientHandler(version: string, declared: Record<string, unknown>, seed: number): Handler {
  let n = 0;
  return (req) => {
    if (req.method === 'ping') return { jsonrpc: '2.0', id: req.id, result: {} };
    const need = NEEDS[req.method];
    if (!need || !(need in declared)) return errorResponse(req.id, -32601, `Method not found: ${req.method} (mcpspec did not declare ${need ?? 'it'})`);
    const result = inputResponse({ method: req.method, params: req.params }, version, seed + n++);
    return { jsonrpc: '2.0', id: req.id, result };
  };
}
