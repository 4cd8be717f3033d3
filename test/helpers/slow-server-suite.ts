/**
 * Acceptance test: a slow server is judged exactly like a fast one.
 *
 * The reference fixture (a correct server) is tested with the built CLI once directly and once
 * through a delay proxy that holds back (a) every answer 1500 ms, or (b) only error answers
 * 2000 ms (so they also arrive out of order). Default flags (no --timeout), --seed 1. Through the
 * proxy the run must still exit 0, fail nothing, and pass exactly the checks it passes when fast:
 * a late answer is an answer, never "no answer" (nothing may turn fail, untestable or skip).
 *
 * Proxies: test/helpers/delay-proxy.mjs (stdio, a child process wrapping the server command) and
 * test/helpers/delay-http-proxy.ts (HTTP, in-process); both have their own unit tests in
 * test/helpers/delay-proxy.test.ts.
 *
 * The direct runs go first, one at a time; the slow runs are then concurrent (mostly waiting,
 * little CPU) to keep wall time low.
 *
 * test/integration/slow-server.test.ts runs three of the five configurations (stdio and HTTP,
 * every answer and error answers only); the other two, on stdio where each scenario's server sits
 * behind its own proxy process, run end to end (test/e2e/slow-server-stdio.test.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelayProxy, type DelayProxy } from './delay-http-proxy.js';
import { ENTRY, REPO_ROOT, startHttpTarget, targetAvailable, type HttpTarget } from './targets.js';

const NODE = process.execPath;
const CLI = path.join(REPO_ROOT, 'dist', 'cli', 'mcpspec.js');
const PROXY = path.join(REPO_ROOT, 'test', 'helpers', 'delay-proxy.mjs');
/** Bound on one CLI run (the process group is killed after it); the test timeout is a bit longer. */
const RUN_LIMIT_MS = 280_000;
const TEST_TIMEOUT_MS = RUN_LIMIT_MS + 30_000;

type Transport = 'stdio' | 'http';
type SpecVersion = '2026-07-28' | '2025-11-25';

export interface SlowConfig {
  transport: Transport;
  version: SpecVersion;
  delayMs: number;
  errorsOnly: boolean;
}

/** The five configurations: every answer held 1500 ms, or error answers only 2000 ms (so out of order). */
export const SLOW_CONFIGS: SlowConfig[] = [
  { transport: 'stdio', version: '2026-07-28', delayMs: 1500, errorsOnly: false },
  { transport: 'stdio', version: '2026-07-28', delayMs: 2000, errorsOnly: true },
  { transport: 'http', version: '2026-07-28', delayMs: 1500, errorsOnly: false },
  { transport: 'http', version: '2026-07-28', delayMs: 2000, errorsOnly: true },
  { transport: 'stdio', version: '2025-11-25', delayMs: 1500, errorsOnly: false },
];

interface Check {
  id: string;
  status: string;
  message?: string;
}

interface Report {
  summary: Record<string, unknown> & { fail: number; pass: number };
  checks: Check[];
}

interface Run {
  label: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  ms: number;
  stdout: string;
  stderr: string;
  report?: Report;
  /** What the HTTP delay proxy saw go wrong upstream (should stay empty). */
  proxyErrors?: string[];
}

const tempDirs: string[] = [];
const stoppers: Array<() => Promise<void>> = [];
const running = new Set<number>();

afterAll(async () => {
  for (const pid of running) killGroup(pid, 'SIGKILL');
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Runs the built CLI in its own process group (so the proxy and server die with it), bounded. */
function runCli(label: string, args: string[]): Promise<Run> {
  const out = mkdtempSync(path.join(tmpdir(), 'mcpspec-slow-'));
  tempDirs.push(out);
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, 'server', '--seed', '1', '--out', out, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid!;
    running.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid, 'SIGKILL');
    }, RUN_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(pid, 'SIGKILL'); // nothing of the run may outlive it
      running.delete(pid);
      const file = path.join(out, 'report.json');
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
      resolve({ label, code, signal, timedOut, ms: Date.now() - start, stdout, stderr, report });
    });
  });
}

async function httpReference(): Promise<HttpTarget> {
  const target = await startHttpTarget('reference');
  stoppers.push(() => target.stop());
  return target;
}

async function delayProxy(target: string, delayMs: number, errorsOnly: boolean): Promise<DelayProxy> {
  const proxy = await startDelayProxy({ target, delayMs, errorsOnly });
  stoppers.push(() => proxy.close());
  return proxy;
}

/** The fast (direct) run of each transport and version, made one at a time before the slow runs. */
const baselines = new Map<string, Run>();
async function runBaseline(transport: Transport, version: SpecVersion): Promise<void> {
  const key = `${transport} ${version}`;
  const label = `${key} direct`;
  if (transport === 'stdio') {
    baselines.set(key, await runCli(label, ['--spec-version', version, '--stdio', '--', NODE, ENTRY.reference()]));
  } else {
    const target = await httpReference();
    baselines.set(key, await runCli(label, ['--spec-version', version, '--url', target.url]));
  }
}

async function slowRun(config: SlowConfig, label: string): Promise<Run> {
  const { transport, version, delayMs, errorsOnly } = config;
  if (transport === 'stdio') {
    const proxy = [PROXY, '--delay-ms', String(delayMs), ...(errorsOnly ? ['--errors-only'] : []), '--', NODE, ENTRY.reference()];
    return runCli(label, ['--spec-version', version, '--stdio', '--', NODE, ...proxy]);
  }
  const target = await httpReference();
  const proxy = await delayProxy(target.url, delayMs, errorsOnly);
  const run = await runCli(label, ['--spec-version', version, '--url', proxy.url]);
  return { ...run, proxyErrors: proxy.errors() };
}

const passed = (run: Run): Set<string> => new Set((run.report?.checks ?? []).filter((c) => c.status === 'pass').map((c) => c.id));

function describeRun(run: Run): string {
  const head = `${run.label}: exit ${run.code ?? run.signal}${run.timedOut ? ` (killed after ${RUN_LIMIT_MS} ms)` : ''}, ${(run.ms / 1000).toFixed(1)} s`;
  if (!run.report) return `${head}; no report.json\nstdout tail:\n${run.stdout.slice(-3000)}\nstderr tail:\n${run.stderr.slice(-2000)}`;
  const proxy = run.proxyErrors?.length ? `\nthe delay proxy saw upstream errors (a proxy problem, not mcpspec's):\n  ${run.proxyErrors.join('\n  ')}` : '';
  return `${head}; summary ${JSON.stringify(run.report.summary)}${proxy}`;
}

/** Everything that differs between the fast and the slow run, one line per check. */
function differences(fast: Run, slow: Run): string {
  const fastPassed = passed(fast);
  const slowPassed = passed(slow);
  const lines: string[] = [];
  for (const check of slow.report?.checks ?? []) {
    if (check.status !== 'pass' || !fastPassed.has(check.id)) {
      lines.push(`  ${check.status.toUpperCase()} ${check.id}${fastPassed.has(check.id) ? ' (passes when fast)' : ''}: ${check.message ?? ''}`);
    }
  }
  const slowIds = new Set((slow.report?.checks ?? []).map((c) => c.id));
  for (const id of fastPassed) if (!slowIds.has(id)) lines.push(`  MISSING ${id} (passes when fast, absent when slow)`);
  for (const id of slowPassed) if (!fastPassed.has(id)) lines.push(`  EXTRA-PASS ${id} (passes only when slow)`);
  return lines.join('\n');
}

/** The acceptance test on `SLOW` (some of SLOW_CONFIGS). */
export function describeSlowServer(SLOW: SlowConfig[]): void {
describe.skipIf(!targetAvailable('reference') || !existsSync(CLI))('a slow server is judged like a fast one (reference fixture)', () => {
  // The yardsticks run one at a time first, so they are not themselves slowed by the slow runs.
  beforeAll(async () => {
    for (const key of new Set(SLOW.map((c) => `${c.transport} ${c.version}`))) {
      const [transport, version] = key.split(' ') as [Transport, SpecVersion];
      await runBaseline(transport, version);
    }
  }, 3 * RUN_LIMIT_MS);

  it.concurrent.each(SLOW.map((c) => [`${c.transport} ${c.version}, ${c.errorsOnly ? 'error answers' : 'every answer'} +${c.delayMs} ms`, c] as const))(
    '%s',
    async (label, config) => {
      const fast = baselines.get(`${config.transport} ${config.version}`)!;
      const slow = await slowRun(config, label);
      const diff = differences(fast, slow);
      const message = `\n${describeRun(fast)}\n${describeRun(slow)}\n${diff ? `checks not passed through the delay proxy:\n${diff}` : ''}`;
      console.log(message);
      // The direct run is the yardstick: it must itself be clean.
      expect(fast.code, message).toBe(0);
      expect(fast.report?.summary.fail, message).toBe(0);
      // Through the proxy: same verdict, nothing failed, the very same checks passed.
      expect(slow.proxyErrors ?? [], message).toEqual([]);
      expect(slow.report, message).toBeDefined();
      expect(slow.report?.summary.fail, message).toBe(0);
      expect([...passed(slow)].sort(), message).toEqual([...passed(fast)].sort());
      expect(slow.code, message).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
}
