// P4: what a client scenario costs under mcpspec beside the official client suite, on the same
// client: the harnesses written to the official contract (test/e2e/clients/official-harness-*.mjs).
// Official: one `conformance client --scenario S` per scenario (its own CLI start-up on Node 22 is
// measured on its own and taken off). mcpspec: `--official-harness` runs, one scenario at a time, each
// scenario's own time. Both have the client's own start-up and work in them: the harness alone against
// a plain server (bench/plain-server.ts) is that part, and what is left is the suite's own cost.
// That difference also holds what the scenarios are made of (a held initialize result, SSE retry
// waits, a client run twice), so mcpspec's own cost is also read from its recording: the scenario's
// time outside the client's life (listening, starting, judging, tearing down) plus its answering
// time inside it (each request's answer delay, the median one per request).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ClientDriver } from '../runner/client-driver.js';
import type { WireEvent } from '../results/wire.js';
import type { RunResult } from '../results/run.js';
import { startPlainHttp } from './client-bench.js';
import { runSuite } from '../runner/engine.js';
import { node22 } from './node22.js';
import { median, runToExit } from './processes.js';

const HARNESSES = [
  { name: 'official-contract harness on the 2.x SDK', file: resolve('test/e2e/clients/official-harness-sdk2.mjs') },
  { name: 'official-contract harness on the 1.x SDK', file: resolve('test/e2e/clients/official-harness-sdk1.mjs') },
];
// Official scenarios both harnesses pass there (test/e2e/official-harness.test.ts), none of them OAuth
// (whose flows differ in what each suite's authorization server does).
const OFFICIAL_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'json-schema-2020-12-preservation', 'sse-retry'];
const REPEATS = 3;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * mcpspec's own milliseconds per scenario, from the run's recording: the scenario's wall time less
 * the life of the client process(es) it started (the client-exit notes' elapsedMs), plus, for each
 * request the client sent, the median delay between the request arriving and its answer leaving
 * (the median: a scenario's deliberate holds, such as a held initialize result, are its test).
 */
export function ownCostPerScenario(run: RunResult): { outside: number; answering: number; requests: number; scenarios: number } {
  const events = run.recording.events();
  const ran = run.scenarios.filter((s) => s.status === 'judged' || s.status === 'no-judgement');
  const bySource = new Map<string, WireEvent[]>();
  for (const e of events) {
    if (!e.source) continue;
    const list = bySource.get(e.source);
    if (list) list.push(e);
    else bySource.set(e.source, [e]);
  }
  const outside: number[] = [];
  const delays: number[] = [];
  let requests = 0;
  for (const s of ran) {
    const mine = bySource.get(s.id) ?? [];
    const life = mine.filter((e) => e.note === 'client-exit').reduce((ms, e) => ms + Number(e.data?.elapsedMs ?? 0), 0);
    outside.push(Math.max(0, s.durationMs - life));
    const asked = new Map<string, number>();
    for (const e of mine) {
      const m = e.message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown } | undefined;
      if (!m || typeof m !== 'object' || m.id === undefined) continue;
      const key = JSON.stringify(m.id);
      if (e.dir === 'in' && typeof m.method === 'string') {
        asked.set(key, e.t);
        requests++;
      } else if (e.dir === 'out' && ('result' in m || 'error' in m) && asked.has(key)) {
        delays.push(e.t - asked.get(key)!);
        asked.delete(key);
      }
    }
  }
  const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0);
  return { outside: mean(outside), answering: median(delays) * (requests / Math.max(1, ran.length)), requests, scenarios: ran.length };
}

export async function benchClientOfficial(): Promise<string> {
  let node: string;
  let cli: string;
  try {
    node = node22();
    cli = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
  } catch (e) {
    return `official client suite not run: ${(e as Error).message.split('\n')[0]}`;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-client-official-'));
  const rows = ['| client | official per scenario | mcpspec per scenario | client alone | official beyond the client | mcpspec beyond the client | ratio | mcpspec\'s own per scenario (outside the client + answering) | own / official beyond the client (target <= 0.1) |', '|---|---|---|---|---|---|---|---|---|'];
  const notes: string[] = [];
  try {
    const cliStart: number[] = [];
    for (let i = 0; i < REPEATS; i++) cliStart.push((await runToExit(node, [cli, '--version'], { timeoutMs: 30_000 })).seconds * 1000);
    const officialStartup = median(cliStart);
    for (const h of HARNESSES) {
      const official: number[] = [];
      for (const scenario of OFFICIAL_SCENARIOS) {
        const times: number[] = [];
        for (let i = 0; i < REPEATS; i++) {
          const r = await runToExit(node, [cli, 'client', '--command', `${process.execPath} ${h.file}`, '--scenario', scenario, '-o', join(dir, `${scenario.replace(/\W/g, '-')}-${i}`)], { cwd: dir, timeoutMs: 120_000 });
          if (r.killed) notes.push(`official ${scenario} on ${h.name}: killed (${r.killed})`);
          times.push(r.seconds * 1000 - officialStartup);
        }
        official.push(median(times));
      }
      // The harness alone: its own start-up and work (the tools_call flow) against the plain server.
      const plain = await startPlainHttp();
      const alone: number[] = [];
      try {
        for (let i = 0; i < REPEATS * 2; i++) alone.push((await runToExit(process.execPath, [h.file, plain.url], { timeoutMs: 30_000, env: { ...process.env, MCP_CONFORMANCE_SCENARIO: 'tools_call' } })).seconds * 1000);
      } finally {
        await plain.stop();
      }
      const driver = new ClientDriver({ command: process.execPath, args: [h.file], transport: 'http', officialHarness: true }, { specVersion: 'auto', timing: { timeoutMs: 20_000 }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: 1, runs: 1 } });
      const run = await runSuite(driver, { schedule: { deadlineMs: 600_000, concurrency: 1 }, seed: 1 });
      const ours = run.scenarios.filter((s) => s.status === 'judged' || s.status === 'no-judgement').map((s) => s.durationMs);
      const o = mean(official);
      const m = mean(ours);
      const a = median(alone);
      const ratio = (m - a) / (o - a);
      const own = ownCostPerScenario(run);
      const ownMs = own.outside + own.answering;
      const ownRatio = ownMs / (o - a);
      rows.push(`| ${h.name} | ${o.toFixed(0)} ms (${official.length} scenarios) | ${m.toFixed(0)} ms (${ours.length} scenarios) | ${a.toFixed(0)} ms | ${(o - a).toFixed(0)} ms | ${(m - a).toFixed(0)} ms | ${ratio.toFixed(2)}x | ${ownMs.toFixed(1)} ms (${own.outside.toFixed(1)} + ${own.answering.toFixed(1)} for ${(own.requests / Math.max(1, own.scenarios)).toFixed(1)} requests) | ${ownRatio.toFixed(3)}x (${ownRatio <= 0.1 ? 'met' : 'not met'}) |`);
    }
    return `${rows.join('\n')}\n\nOfficial: ${OFFICIAL_SCENARIOS.join(', ')}, each run alone (median of ${REPEATS}), less the official CLI's own start-up (${officialStartup.toFixed(0)} ms, \`--version\` on Node 22). mcpspec: every scenario of \`mcpspec client --official-harness\`, one at a time, timed inside the run. Client alone: the harness's tools_call flow against the plain server. "Beyond the client" is a scenario's whole time less the client alone: it counts what the scenarios are made of (a 1 s held initialize result, the SSE retry waits, the authorization scenarios that start the client twice). mcpspec's own cost is read from its recording instead: each scenario's time outside the client process's life, plus the median answer delay times the requests per scenario.${notes.length ? `\n${notes.join('\n')}` : ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
