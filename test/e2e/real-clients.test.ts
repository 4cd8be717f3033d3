// Real MCP clients judged by `mcpspec client`, verdicts pinned. docs/real-clients.md explains every
// verdict that is not a pass. Everything not listed must pass: a new failure here is either a client
// change or an mcpspec mistake to look at.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { ClientDriver } from '../../runner/client-driver.js';
import { runSuite } from '../../runner/engine.js';
import { liveCount } from '../../runner/reaper.js';

const INSPECTOR = resolve('node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const SDK2 = resolve('test/e2e/clients/sdk2-client.mjs');
const SDK1 = resolve('test/e2e/clients/sdk1-client.mjs');

async function judge(transport: 'http' | 'stdio', argv: string[], cwd?: string): Promise<RunResult> {
  const driver = new ClientDriver({ command: process.execPath, args: argv, transport }, { specVersion: 'auto', allowDestructive: false, allowOpenWorld: false, timeoutMs: 20_000, seed: 1, runs: 1, cwd });
  return runSuite(driver, { deadlineMs: 240_000, seed: 1, concurrency: 4 });
}

/** Every verdict that is not a pass, plus mcpspec's own failures. */
function notPassed(run: RunResult): Record<string, string> {
  return Object.fromEntries(run.checks.filter((c) => c.status !== 'pass').map((c) => [c.id, c.status]));
}

// The example 2.x client does not declare the tasks extension (it has no @modelcontextprotocol/ext-tasks).
const NO_TASKS = { 'client.task-polls': 'skip', 'client.task-poll-interval': 'skip', 'client.task-input': 'skip' };
// It lists tools once: whether it caches cannot show.
const LISTS_ONCE = { 'client.cache-fresh': 'untestable' };
// None of them task-augments a tool call when a 2025-11-25 server offers tasks; the inspector (tools/list only) calls no tool at all.
const NO_LEGACY_TASKS = { 'client.legacy-task-polls': 'untestable' };
const NO_TOOL_CALL = { ...NO_LEGACY_TASKS, 'client.legacy-task-unasked': 'untestable' };

// The inspector reads ../package.json relative to its working directory: run it from test/ (the repository's package.json is above).
const CASES: { name: string; transport: 'http' | 'stdio'; argv: string[]; cwd?: string; era: string; notPassed: Record<string, string>; checks: number }[] = [
  { name: 'inspector-cli 1.0.3', transport: 'http', argv: [INSPECTOR, '{url}', '--transport', 'http', '--method', 'tools/list'], cwd: resolve('test'), era: '2025-11-25', notPassed: { 'client.session-delete': 'warn', ...NO_TOOL_CALL }, checks: 16 },
  { name: 'inspector-cli 1.0.3', transport: 'stdio', argv: [INSPECTOR, '--method', 'tools/list', '{server}'], cwd: resolve('test'), era: '2025-11-25', notPassed: { ...NO_TOOL_CALL }, checks: 11 },
  { name: '@modelcontextprotocol/client 2.4.0', transport: 'http', argv: [SDK2, '--http', '{url}'], era: '2026-07-28', notPassed: { 'client.session-delete': 'warn', ...NO_TASKS, ...LISTS_ONCE, ...NO_LEGACY_TASKS }, checks: 33 },
  { name: '@modelcontextprotocol/client 2.4.0', transport: 'stdio', argv: [SDK2, '--stdio', '{server}'], era: '2026-07-28', notPassed: { ...NO_TASKS, ...LISTS_ONCE, ...NO_LEGACY_TASKS }, checks: 26 },
  { name: '@modelcontextprotocol/sdk 1.32.2', transport: 'http', argv: [SDK1, '--http', '{url}'], era: '2025-11-25', notPassed: { ...NO_LEGACY_TASKS }, checks: 16 },
  { name: '@modelcontextprotocol/sdk 1.32.2', transport: 'stdio', argv: [SDK1, '--stdio', '{server}'], era: '2025-11-25', notPassed: { ...NO_LEGACY_TASKS }, checks: 11 },
];

describe('real clients, judged by mcpspec client', () => {
  for (const c of CASES) {
    it(`${c.name} over ${c.transport}`, async () => {
      const run = await judge(c.transport, c.argv, c.cwd);
      expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
      expect(run.era.version).toBe(c.era);
      expect(notPassed(run)).toEqual(c.notPassed);
      expect(run.checks.length).toBe(c.checks);
      expect(liveCount()).toBe(0);
    });
  }
});
