// Mutations of the stdio area (requirements digest §13a): how a stdio server frames what it writes
// to stdout. Framing mutations emit raw text (toClient with `raw`) or rewrite the lines as written
// (stdoutLine); the rest of the traffic is untouched.

import { isObj, isResponse } from '../../protocol/jsonrpc.js';
import { onAnswer } from '../edits.js';
import { mutation, raw, type Mutation } from '../mutation.js';

const server = { role: 'server', eras: ['legacy', 'modern'], transports: ['stdio'] } as const;
const serverModern = { role: 'server', eras: ['modern'], transports: ['stdio'] } as const;

/** Ids of the requests the server-sends-request mutation writes (its client's answers go no further). */
const ASK_PREFIX = 'mcpspec-mutant-ask-';

export const STDIO_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'stdio.pretty-printed',
    requirements: ['IO-01'],
    description: 'answers to tools/list and prompts/list are written pretty-printed over several lines (two-space indent)',
    ...onAnswer(['tools/list', 'prompts/list'], (m) => [raw(`${JSON.stringify(m, null, 2)}\n`)]),
  }),
  mutation({
    ...server,
    id: 'stdio.no-newline-after-message',
    requirements: ['IO-01'],
    // Two messages on one line: the line is no message at all (stdout noise).
    related: ['IO-02'],
    description: 'answers to tools/list are written without their newline, so the next message follows on the same line',
    ...onAnswer(['tools/list'], (m) => [raw(JSON.stringify(m))]),
  }),
  mutation({
    ...server,
    id: 'stdio.log-line-on-stdout',
    requirements: ['IO-02'],
    related: ['IO-03'],
    description: 'a log line ("[mcp-server] INFO handling <method>") goes to stdout before each answer to tools/call and tools/list',
    stdoutLine(line, ctx) {
      const method = ctx.request?.method;
      if (method !== 'tools/call' && method !== 'tools/list') return undefined;
      return [`[mcp-server] INFO handling ${method}`, line];
    },
  }),
  mutation({
    ...server,
    id: 'stdio.blank-lines',
    requirements: ['IO-02'],
    related: ['IO-01'],
    description: 'every message written to stdout is followed by an empty line',
    stdoutLine(line) {
      return line === '' ? undefined : [line, ''];
    },
  }),
  mutation({
    ...server,
    id: 'stdio.startup-banner',
    requirements: ['IO-02'],
    description: 'the server writes a banner ("Starting MCP server (stdio transport)...") to stdout when the first message reaches it',
    toServer(m, ctx) {
      if (ctx.state.bannered === true) return undefined;
      ctx.state.bannered = true;
      ctx.reply(raw('Starting MCP server (stdio transport)...\n'));
      return [m];
    },
  }),
  mutation({
    ...serverModern,
    id: 'stdio.server-sends-request',
    requirements: ['IO-04'],
    related: ['JR-09'],
    description: 'before answering tools/call, prompts/get or resources/read the modern server writes a JSON-RPC request (ping) to its client; the client\'s answer to it goes no further',
    toClient(m, ctx) {
      if (!isResponse(m) || !ctx.request || !['tools/call', 'prompts/get', 'resources/read'].includes(ctx.request.method)) return undefined;
      const n = (typeof ctx.state.asks === 'number' ? ctx.state.asks : 0) + 1;
      ctx.state.asks = n;
      return [{ jsonrpc: '2.0', id: `${ASK_PREFIX}${n}`, method: 'ping' }, m];
    },
    toServer(m) {
      // The client's answer to the mutation's own request: the real server never asked.
      if (!isObj(m) || 'method' in m || typeof m.id !== 'string' || !m.id.startsWith(ASK_PREFIX)) return undefined;
      return [];
    },
  }),
  mutation({
    ...server,
    id: 'stdio.ignores-stdin-eof',
    requirements: ['IO-05'],
    description: "the server does not exit when its client closes its stdin (the proxy keeps the server's input open)",
    stdinEnd: () => true,
  }),
];
