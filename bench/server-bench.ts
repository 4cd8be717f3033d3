import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RunResult } from '../results/run.js';
import { runServerSuite } from '../runner/run-server.js';
import type { ServerTarget } from '../runner/server-driver.js';
import { EVERYTHING, startEverythingHttp } from './everything.js';

interface Row {
  transport: 'stdio' | 'http';
  mcpspecSeconds: number;
  checksJudged: number;
  requestsReplayed: number;
  baselineSeconds: number;
}

/** The requests mcpspec sent (after each handshake) that the server answered. */
function answeredRequests(run: RunResult): Record<string, unknown>[] {
  const events = run.recording.events();
  const answered = new Set<string>();
  for (const e of events) {
    const m = e.message as Record<string, unknown> | undefined;
    if (e.dir === 'in' && m && ('result' in m || 'error' in m)) answered.add(`${e.source}:${JSON.stringify(m.id)}`);
  }
  return events
    .filter((e) => e.dir === 'out' && e.kind === 'message')
    .map((e) => ({ e, m: e.message as Record<string, unknown> }))
    .filter(({ e, m }) => m && typeof m.method === 'string' && m.method !== 'initialize' && ('id' in m) && answered.has(`${e.source}:${JSON.stringify(m.id)}`))
    .map(({ m }, i) => ({ ...m, id: i + 1000 }));
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'baseline', version: '1' } } };

/** A plain loop: one process, one request at a time, wait for its answer (500 ms cap), next. */
async function baselineStdio(requests: Record<string, unknown>[]): Promise<number> {
  const proc = spawn(process.execPath, [EVERYTHING, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<unknown, () => void>();
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    try {
      const m = JSON.parse(line) as { id?: unknown };
      waiting.get(m.id)?.();
    } catch {
      /* not JSON */
    }
  });
  const send = (m: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 500);
      waiting.set(m.id, () => {
        clearTimeout(t);
        resolve();
      });
      proc.stdin!.write(`${JSON.stringify(m)}\n`);
    });
  const t0 = performance.now();
  await send(INIT);
  proc.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  for (const r of requests) await send(r);
  const seconds = (performance.now() - t0) / 1000;
  proc.kill('SIGKILL');
  return seconds;
}

async function baselineHttp(url: string, requests: Record<string, unknown>[]): Promise<number> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const t0 = performance.now();
  const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INIT) });
  await init.text();
  const sid = init.headers.get('mcp-session-id');
  if (sid) headers['Mcp-Session-Id'] = sid;
  headers['MCP-Protocol-Version'] = '2025-11-25';
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  for (const r of requests) {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(r), signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    await res?.text().catch(() => undefined);
  }
  return (performance.now() - t0) / 1000;
}

const OPTIONS = { specVersion: 'auto', allowDestructive: false, allowOpenWorld: false, timeoutMs: 10_000, seed: 1, runs: 20, deadlineMs: 300_000, concurrency: 4 } as const;

async function measure(transport: 'stdio' | 'http'): Promise<Row> {
  let target: ServerTarget;
  let stop = async () => undefined as void;
  if (transport === 'stdio') target = { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] };
  else {
    const server = await startEverythingHttp();
    target = { kind: 'http', url: server.url };
    stop = server.stop;
  }
  try {
    const t0 = performance.now();
    const run = await runServerSuite(target, OPTIONS);
    const mcpspecSeconds = (performance.now() - t0) / 1000;
    const requests = answeredRequests(run);
    const baselineSeconds = transport === 'stdio' ? await baselineStdio(requests) : await baselineHttp((target as { url: string }).url, requests);
    const judged = run.checks.filter((c) => c.status === 'pass' || c.status === 'fail' || c.status === 'warn').length;
    return { transport, mcpspecSeconds, checksJudged: judged, requestsReplayed: requests.length, baselineSeconds };
  } finally {
    await stop();
  }
}

/** Wall time of the whole suite against server-everything, beside a plain request loop, in one run. */
export async function benchServer(): Promise<string> {
  const rows = [await measure('stdio'), await measure('http')];
  const lines = [
    '| transport | mcpspec full suite | checks judged (pass/fail/warn) | answered requests replayed by a plain loop | plain loop | mcpspec / plain loop |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.transport} | ${r.mcpspecSeconds.toFixed(2)} s | ${r.checksJudged} | ${r.requestsReplayed} | ${r.baselineSeconds.toFixed(2)} s | ${(r.mcpspecSeconds / r.baselineSeconds).toFixed(2)}x |`);
  }
  return lines.join('\n');
}
