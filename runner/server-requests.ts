// What mcpspec answers, as a capable client, to the requests a legacy server sends its client
// (roots/list, sampling, elicitation, ping).

import { inputResponse } from '../arbitraries/input-responses.js';
import { errorResponse } from '../protocol/jsonrpc.js';
import type { ServerRequestHandler } from './server-request-reply.js';

/** The client capability a server-to-client request needs (LC-07). */
const NEEDS: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/**
 * mcpspec as a correct legacy client: `ping` gets `{}`; a request for a capability the session
 * declared gets a result generated from the schema of its result type (an elicitation's content
 * from its own requestedSchema); anything else gets -32601.
 */
export function capableClientHandler(version: string, declared: Record<string, unknown>, seed: number): ServerRequestHandler {
  let n = 0;
  return (req) => {
    if (req.method === 'ping') return { jsonrpc: '2.0', id: req.id, result: {} };
    const need = NEEDS[req.method];
    if (!need || !(need in declared)) return errorResponse(req.id, -32601, `Method not found: ${req.method} (mcpspec did not declare ${need ?? 'it'})`);
    const result = inputResponse({ method: req.method, params: req.params }, version, seed + n++);
    return { jsonrpc: '2.0', id: req.id, result };
  };
}
