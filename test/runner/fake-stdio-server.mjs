// A throwaway stdio "server" for runner tests: reads newline-delimited JSON-RPC on stdin and
// answers by simple per-method rules. FAKE_MODE picks how it treats era probes:
//   legacy (default): server/discover -> -32601   legacy-silent: server/discover -> no answer
//   legacy-crash: server/discover -> exit 4       modern: server/discover -> DiscoverResult
//   modern-32022: server/discover -> -32022 listing 2026-07-28
//   modern-no-versions: server/discover -> a result without supportedVersions
// FAKE_IGNORE_EOF=1 keeps it alive after stdin closes; FAKE_IGNORE_TERM=1 ignores SIGTERM.
// FAKE_INIT=crash|hang|error breaks initialize; FAKE_VERSION forces the answered protocolVersion.
// FAKE_PARSE says how unparseable lines are answered: null (default: -32700 with id null), noid
// (-32700 without an id member), silent (no answer), late:<ms> (id null, after <ms>).
// FAKE_DISCOVER_DELAY=<ms> answers server/discover (modern) late.
// FAKE_PING: ping is answered at once (default), after <ms>, or never (silent).
// Methods `delay` (answer after params.ms) and `hang` (never answer) let tests answer late, out of
// order or not at all; `twice` is answered twice; a batch (array) is answered with an array;
// `notifications/answer-me` gets an (illegal) id-null answer.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const mode = process.env.FAKE_MODE ?? 'legacy';
const out = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const result = (id, r) => out({ jsonrpc: '2.0', id, result: r });
const error = (id, code, message, data) => out({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });
const waiting = new Map(); // id of our server->client request -> callback

if (process.env.FAKE_IGNORE_TERM) process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
process.stderr.write(`fake server started (mode ${mode})\n`);
if (process.env.FAKE_BANNER) process.stdout.write(`${process.env.FAKE_BANNER}\n`);

const rl = createInterface({ input: process.stdin });
rl.on('close', () => {
  if (process.env.FAKE_IGNORE_EOF) setInterval(() => {}, 1000);
  else process.exit(0);
});

const parseMode = process.env.FAKE_PARSE ?? 'null';
function parseError() {
  if (parseMode === 'silent') return;
  if (parseMode === 'noid') return out({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
  if (parseMode.startsWith('late:')) {
    setTimeout(() => error(null, -32700, 'Parse error (late)'), Number(parseMode.slice(5)));
    return;
  }
  error(null, -32700, 'Parse error');
}

rl.on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    parseError();
    return;
  }
  if (Array.isArray(msg)) {
    if (msg.length === 0) return error(null, -32600, 'Invalid Request: empty batch');
    out(msg.filter((m) => m?.id !== undefined).map((m) => ({ jsonrpc: '2.0', id: m.id, result: { batched: m.method } })));
    return;
  }
  if (msg.id !== undefined && msg.method === undefined) {
    // a reply to one of our requests
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
    return;
  }
  const { id, method, params } = msg;
  if (id === undefined) {
    if (method === 'notifications/poke') out({ jsonrpc: '2.0', method: 'notifications/poked', params: { from: 'fake' } });
    if (method === 'notifications/answer-me') error(null, -32600, 'Invalid Request: notifications get no answer');
    return;
  }
  switch (method) {
    case 'ping': {
      const how = process.env.FAKE_PING;
      if (how === 'silent') return;
      if (how !== undefined) return setTimeout(() => result(id, {}), Number(how));
      return result(id, {});
    }
    case 'delay':
      setTimeout(() => result(id, { delayedMs: params?.ms ?? 0 }), params?.ms ?? 0);
      return;
    case 'initialize':
      if (process.env.FAKE_INIT === 'crash') {
        process.stderr.write('fatal: cannot open database\n');
        setTimeout(() => process.exit(5), 20);
        return;
      }
      if (process.env.FAKE_INIT === 'hang') return;
      if (process.env.FAKE_INIT === 'error') return error(id, -32602, 'Unsupported protocol version', { supported: ['2024-11-05'] });
      result(id, {
        protocolVersion: process.env.FAKE_VERSION ?? params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'fake-stdio', version: '1.0.0' },
        instructions: 'be nice',
      });
      return;
    case 'server/discover': {
      if (mode === 'legacy') return error(id, -32601, 'Method not found');
      if (mode === 'legacy-silent') return;
      if (mode === 'legacy-crash') process.exit(4);
      if (mode === 'modern-no-versions') return result(id, { resultType: 'complete', capabilities: { tools: {} } });
      if (mode === 'modern-32022')
        return error(id, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: 'x' });
      const discovered = () => result(id, {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        instructions: 'modern fake',
        ttlMs: 0,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake-modern', version: '2.0.0' } },
      });
      if (process.env.FAKE_DISCOVER_DELAY) return setTimeout(discovered, Number(process.env.FAKE_DISCOVER_DELAY));
      return discovered();
    }
    case 'tools/list':
      return result(id, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
    case 'echo':
      return result(id, { params: params ?? null });
    case 'noise':
      process.stdout.write('this is not json\n');
      return result(id, { ok: true });
    case 'pretty':
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { pretty: true } }, null, 2)}\n`);
      return;
    case 'crash':
      process.stderr.write('boom: something went badly wrong\n');
      setTimeout(() => process.exit(3), 20);
      return;
    case 'hang':
      return;
    case 'notify-then-respond':
      out({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
      return result(id, { done: true });
    case 'twice':
      result(id, { answer: 1 });
      return result(id, { answer: 2 });
    case 'wrong-id-type':
      return result(String(id), { ok: true });
    case 'big':
      return result(id, { blob: 'x'.repeat(params?.size ?? 2000) });
    case 'server-request':
      waiting.set('srv-1', (reply) => result(id, { reply }));
      out({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list', params: {} });
      return;
    case 'spawn-grandchild': {
      const child = spawn(
        process.execPath,
        ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"],
        { stdio: 'ignore' },
      );
      setTimeout(() => result(id, { pid: child.pid }), 100);
      return;
    }
    case 'pid':
      return result(id, { pid: process.pid });
    case 'env':
      return result(id, { env: process.env });
    default:
      return error(id, -32601, `Method not found: ${method}`);
  }
});
