// `npm run bench client`: what mcpspec costs per client scenario. For each client and transport:
// the mean wall time of a scenario (mcpspec listening or relaying, the client started afresh, its
// exchange judged; one scenario at a time), beside the mean time the client itself needs to start
// and do its work against a plain server (bench/plain-server.ts: the same answers, nothing else). The difference is
// mcpspec's own overhead per scenario; the target is under 100 ms.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ClientDriver } from '../runner/client-driver.js';
import { runSuite } from '../runner/engine.js';
import { runToExit, startListening } from './processes.js';
import { inspector2Cli, mcpRemoteClient, mcpRemoteProxy } from './real-clients.js';

const PLAIN_SERVER = resolve('dist/bench/plain-server.js');
type Transport = 'http' | 'stdio';
// `start` (default: this Node) gives the command and its first words, installing the client on first use; `transports` default both.
const CLIENTS: { name: string; start?: () => { command: string; args: string[] }; transports?: Transport[]; argv: (transport: Transport, endpoint: string[]) => string[] }[] = [
  { name: 'reference client', argv: (t, e) => [resolve('dist/fixtures/clients/reference/main.js'), `--${t}`, ...e] },
  { name: 'sdk2 client (@modelcontextprotocol/client 2.4.0)', argv: (t, e) => [resolve('test/e2e/clients/sdk2-client.mjs'), `--${t}`, ...e] },
  { name: 'mcp-remote-client (mcp-remote 0.15.1)', start: mcpRemoteClient, transports: ['http'], argv: (_t, e) => e },
  { name: 'mcp-remote 0.15.1 proxy under the sdk1 client', start: () => ({ command: process.execPath, args: [resolve('test/e2e/clients/sdk1-client.mjs'), '--stdio', process.execPath, mcpRemoteProxy()] }), transports: ['http'], argv: (_t, e) => e },
  {
    name: 'inspector 2.12.0 --cli --protocol-era auto tools/call (Node 22)',
    start: inspector2Cli,
    argv: (t, e) => [...(t === 'http' ? [...e, '--transport', 'http'] : []), '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=hi', '--protocol-era', 'auto', ...(t === 'stdio' ? e : [])],
  },
];
const PLAIN_RUNS = 5;

/** bench/plain-server.ts over HTTP on a free loopback port. */
export function startPlainHttp(): Promise<{ url: string; stop: () => Promise<void> }> {
  return startListening(process.execPath, [PLAIN_SERVER, '--http'], 'the plain server');
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function benchClient(): Promise<string> {
  const rows: string[] = ['| client | transport | scenarios | mean per scenario (mcpspec) | client alone against a plain server | overhead per scenario |', '|---|---|---|---|---|---|'];
  for (const client of CLIENTS) {
    const { command, args: first } = client.start?.() ?? { command: process.execPath, args: [] };
    for (const transport of client.transports ?? (['http', 'stdio'] as const)) {
      // The client alone: its own start and work against the plain server.
      const http = transport === 'http' ? await startPlainHttp() : undefined;
      const plain: number[] = [];
      try {
        for (let i = 0; i < PLAIN_RUNS; i++) {
          const argv = [...first, ...client.argv(transport, http ? [http.url] : [process.execPath, PLAIN_SERVER])];
          // A temporary HOME, as mcpspec gives the client: mcp-remote and the inspector keep state there.
          const home = mkdtempSync(join(tmpdir(), 'mcpspec-bench-home-'));
          const r = await runToExit(command, argv, { timeoutMs: 30_000, keepStdinOpen: true, env: { ...process.env, HOME: home } }).finally(() => rmSync(home, { recursive: true, force: true }));
          if (r.code !== 0 || r.killed) throw new Error(`${client.name} against the plain server: exit ${r.code} ${r.killed ?? ''}\n${r.output}`);
          plain.push(r.seconds * 1000);
        }
      } finally {
        await http?.stop();
      }
      // mcpspec: one scenario at a time, so each scenario's time is its own.
      const placeholder = transport === 'http' ? '{url}' : '{server}';
      const argv = [...first, ...client.argv(transport, [placeholder])];
      const driver = new ClientDriver({ command, args: argv, transport }, { specVersion: 'auto', timing: { timeoutMs: 20_000 }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: 1, runs: 1 } });
      const run = await runSuite(driver, { schedule: { deadlineMs: 300_000, concurrency: 1 }, seed: 1 });
      const per = run.scenarios.filter((s) => s.status === 'judged' || s.status === 'no-judgement').map((s) => s.durationMs);
      const m = mean(per);
      const base = mean(plain);
      rows.push(`| ${client.name} | ${transport} | ${per.length} | ${m.toFixed(0)} ms | ${base.toFixed(0)} ms | ${(m - base).toFixed(0)} ms |`);
    }
  }
  return `${rows.join('\n')}\n\nThe plain server is bench/plain-server.ts: the scripted server's answers with no recording, judging or relay (over stdio the client starts it, as it starts \`{server}\` under mcpspec). Scenario times include the scripted rounds a scenario adds (input_required retries, the legacy server's own requests), so the overhead is an upper bound. The next section sets it beside the official client suite on the same harnesses (P4).`;
}
