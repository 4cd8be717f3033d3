// A tiny harness written to the official conformance suite's client contract, for mcpspec's tests of
// that contract: each run appends what it was given (argv, cwd, the MCP_CONFORMANCE_* and
// MCPSPEC_SCENARIO variables) as a JSON line to the file after --log, then does the plain 2025 flow
// (initialize, initialized, tools/list, a call of every listed tool) against its last argument.
// `--knows a,b` limits the official names it runs; any other ends it at once with exit 1 (`--throw`:
// an uncaught exception), as harnesses do. `--once`: it runs only its first run (the marker is the
// log file's name + .ran) and refuses every later one. (Options, not variables: mcpspec redacts the
// values of the variables it is given from its output.)
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const url = args.at(-1);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const log = option('--log');
const name = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const picked = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MCP_CONFORMANCE_') || k === 'MCPSPEC_SCENARIO'));
appendFileSync(log, `${JSON.stringify({ argv: args, cwd: process.cwd(), env: picked })}\n`);

const knows = option('--knows')?.split(',');
const marker = `${log}.ran`;
if ((knows && !knows.includes(name)) || (args.includes('--once') && existsSync(marker))) {
  if (args.includes('--throw')) throw new Error(`Unknown scenario: ${name}`);
  console.error(`Unknown scenario: ${name}`);
  process.exit(1);
}
writeFileSync(marker, '');

let session;
let id = 0;
const headers = () => ({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(session ? { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' } : {}) });
const post = (body) => fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(body), signal: AbortSignal.timeout(8000) });

/** The answer to a request: a JSON body, or the response event of an SSE stream (the server's requests on it answered: ping with {}, the rest refused). */
async function answerOf(res) {
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    buffered += decoder.decode(value, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const data = buffered.slice(0, end).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
      buffered = buffered.slice(end + 2);
      if (!data) continue;
      const m = JSON.parse(data);
      if (typeof m.method === 'string' && 'id' in m) await post(m.method === 'ping' ? { jsonrpc: '2.0', id: m.id, result: {} } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
      else if ('result' in m || 'error' in m) return m;
    }
  }
}

async function request(method, params) {
  const res = await post({ jsonrpc: '2.0', id: ++id, method, params });
  session ??= res.headers.get('mcp-session-id') ?? undefined;
  return answerOf(res);
}

const init = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'recording-harness', version: '1.0.0' } });
if (!init?.result) process.exit(0); // a server that refuses initialize (a 2026-07-28-only one): nothing more to do
await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
const tools = await request('tools/list', {});
for (const t of tools?.result?.tools ?? []) await request('tools/call', { name: t.name, arguments: {} });
