// A plain MCP server for the client bench: the scripted server's answers (suites/client/scripted-server.ts) with
// nothing else: no recording, no judging, no relay. stdio by default; `--http` listens on 127.0.0.1
// and prints `listening URL`.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { isObj } from '../protocol/jsonrpc.js';
import { META_SERVER_INFO } from '../protocol/meta.js';
import { modernMetaOf, plainResult, SCRIPTED_INFO, SESSION_ID } from '../suites/client/scripted-server.js';

function answer(m: unknown): unknown {
  if (!isObj(m) || typeof m.method !== 'string' || !('id' in m)) return undefined;
  const params = isObj(m.params) ? m.params : {};
  const modern = !!modernMetaOf(params);
  if (m.method === 'server/discover') return { jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {}, prompts: {}, resources: {} }, ttlMs: 0, cacheScope: 'public', _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
  if (m.method === 'initialize') return { jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, prompts: {}, resources: {} }, serverInfo: SCRIPTED_INFO } };
  const r = plainResult(m.method, params, modern ? 'modern' : 'legacy');
  return r ? { jsonrpc: '2.0', id: m.id, result: r } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } };
}

if (process.argv.includes('--http')) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      let msg: unknown;
      try {
        msg = JSON.parse(body);
      } catch {
        return void res.writeHead(400).end();
      }
      const out = answer(msg);
      if (out === undefined) return void res.writeHead(202).end();
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (isObj(msg) && msg.method === 'initialize') headers['Mcp-Session-Id'] = SESSION_ID;
      res.writeHead(200, headers).end(JSON.stringify(out));
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`));
} else {
  createInterface({ input: process.stdin }).on('line', (line) => {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    const out = answer(msg);
    if (out !== undefined) process.stdout.write(`${JSON.stringify(out)}\n`);
  });
}
