// Client-role Streamable HTTP scenarios: mcpspec's scripted server (suites/client/scripted-server.ts)
// answering on SSE streams, closing them early for the client to resume (2025-11-25), or breaking
// them before the answer (2026-07-28). Judged by client-checks.ts beside it.

import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import { clientScenario, type ClientScenarioContext } from '../../kit/scenario.js';
import { playScript, type ClientObs } from '../../client/client-run.js';
import { plainResult, TOOL, TYPED_TOOL } from '../../client/scripted-server.js';

/** The plain dual-era server again, every answer an SSE stream (priming event, comment line, then the message). */
export const sseAnswers = clientScenario<ClientObs>({
  id: 'client-sse',
  title: 'the plain scripted server answering every request as an SSE stream with a comment line',
  versions: ALL_VERSIONS,
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: true, legacy: true, sse: true }),
});

/**
 * The `retry` the polling server names: long enough that an early reconnection shows even with the
 * slack client.sse-retry-respected allows for a loaded client's clock (a quarter of it).
 */
export const POLL_RETRY_MS = 800;
/** How many answers after initialize come by polling. */
export const POLL_COUNT = 2;

/**
 * A 2025-11-25 server that polls (HL-04, SEP-1699): the first answers after initialize come on SSE
 * streams that name `retry` and an event id and then close; each answer waits for the client's GET
 * with that Last-Event-ID.
 */
export const pollingServer = clientScenario<ClientObs>({
  id: 'client-sse-polling',
  title: 'a 2025-11-25 scripted server that closes its first answers\' SSE streams early (retry, event id), to be resumed with GET and Last-Event-ID',
  versions: ['2025-11-25'],
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: false, legacy: true, poll: { retryMs: POLL_RETRY_MS, count: POLL_COUNT } }),
});

/** How many requests the broken-stream server loses. */
export const BROKEN_COUNT = 1;

/**
 * A 2026-07-28 server whose first answer stream (after server/discover) closes before the answer,
 * with no event id: the request is lost, and the client must send it again with a new id (HM-05).
 */
export const brokenStreamServer = clientScenario<ClientObs>({
  id: 'client-broken-stream',
  title: 'a scripted 2026-07-28 server that closes the answer stream of the first request after server/discover before answering it',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => playScript(ctx, { modern: true, legacy: false, breakStreams: BROKEN_COUNT }),
});

/**
 * Tools whose x-mcp-header breaks one of its constraints each (HM-10; the names and cases are the
 * official suite's): an HTTP client must leave them out of its tools/list view, so it never calls them.
 * Each also takes the `text` argument most clients send.
 */
export const INVALID_TOOLS: { tool: Record<string, unknown>; breaks: string }[] = [
  // First those whose header names a client could still send, so that one not dropping them shows it in its call.
  { breaks: 'an empty x-mcp-header', tool: { name: 'invalid_empty_header', properties: { text: { type: 'string', 'x-mcp-header': '' } } } },
  { breaks: 'the same x-mcp-header on two properties', tool: { name: 'invalid_duplicate_same_case', properties: { text: { type: 'string', 'x-mcp-header': 'Text' }, other: { type: 'string', 'x-mcp-header': 'Text' } } } },
  { breaks: 'the same x-mcp-header, case aside, on two properties', tool: { name: 'invalid_duplicate_diff_case', properties: { text: { type: 'string', 'x-mcp-header': 'Text' }, other: { type: 'string', 'x-mcp-header': 'TEXT' } } } },
  { breaks: 'an x-mcp-header on an object property', tool: { name: 'invalid_object_header', properties: { text: { type: 'string' }, data: { type: 'object', 'x-mcp-header': 'Data' } } } },
  { breaks: 'an x-mcp-header on an array property', tool: { name: 'invalid_array_header', properties: { text: { type: 'string' }, items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } } } },
  { breaks: 'an x-mcp-header on a null property', tool: { name: 'invalid_null_header', properties: { text: { type: 'string' }, nil: { type: 'null', 'x-mcp-header': 'Nil' } } } },
  // Then names that are no RFC 9110 token (a client sending them would have its HTTP library refuse the header).
  { breaks: 'an x-mcp-header with a space (not an RFC 9110 token)', tool: { name: 'invalid_space_in_name', properties: { text: { type: 'string', 'x-mcp-header': 'My Text' } } } },
  { breaks: 'an x-mcp-header with a colon (not an RFC 9110 token)', tool: { name: 'invalid_colon_in_name', properties: { text: { type: 'string', 'x-mcp-header': 'Text:Primary' } } } },
  { breaks: 'an x-mcp-header with a non-ASCII letter (not an RFC 9110 token)', tool: { name: 'invalid_non_ascii_name', properties: { text: { type: 'string', 'x-mcp-header': 'Tëxt' } } } },
  { breaks: 'an x-mcp-header with a tab (a control character)', tool: { name: 'invalid_control_char_name', properties: { text: { type: 'string', 'x-mcp-header': 'Text\t1' } } } },
].map(({ breaks, tool }) => ({
  breaks,
  tool: { name: tool.name, description: `Echoes its text (its schema has ${breaks})`, inputSchema: { type: 'object', properties: tool.properties }, annotations: { readOnlyHint: true } },
}));

/** The valid tool listed after the invalid ones (the official suite's name; x-mcp-header on text). */
export const VALID_TOOL = {
  name: 'valid_tool',
  description: 'Echoes its text, mirrored into Mcp-Param-Text',
  inputSchema: { type: 'object', properties: { text: { type: 'string', 'x-mcp-header': 'Text' } } },
  annotations: { readOnlyHint: true },
};

/** The scripted 2026-07-28 server with its tools/list replaced by `tools` (then whatever a harness asks for). */
function listing(ctx: ClientScenarioContext, tools: Record<string, unknown>[]): Promise<ClientObs> {
  return playScript(ctx, {
    modern: true,
    legacy: false,
    override: (req, m) => {
      if (req.method !== 'tools/list') return undefined;
      const plain = plainResult('tools/list', req.params, m.era, ctx.server.alsoListed)!;
      return { jsonrpc: '2.0', id: req.id, result: { ...plain, tools: [...tools, ...(ctx.server.alsoListed ?? [])] } };
    },
  });
}

export const paramTypesServer = clientScenario<ClientObs>({
  id: 'client-param-types',
  title: 'a scripted 2026-07-28 server listing first a tool whose integer and boolean arguments are declared x-mcp-header and whose text is not',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => listing(ctx, [TYPED_TOOL, TOOL]),
});

export const invalidToolsServer = clientScenario<ClientObs>({
  id: 'client-invalid-tools',
  title: 'a scripted 2026-07-28 server listing first ten tools whose x-mcp-header is invalid (empty, repeated, on an object, array or null property, not a token), then a valid one',
  versions: MODERN,
  transports: ['http'],
  run: (ctx) => listing(ctx, [...INVALID_TOOLS.map((t) => t.tool), VALID_TOOL]),
});
