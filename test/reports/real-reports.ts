// Reports of real runs for the format tests: the built CLI against server-everything (stdio), and
// against the reference fixture with one SHOULD broken (a warning). Both run at once.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../reports/report.js';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Run the built CLI; bounded so a hang fails the test instead of stalling it. */
export function cli(args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn('node', ['dist/bin/mcpspec.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

export interface RealReport {
  dir: string;
  file: string;
  report: Report;
}

async function run(name: string, timeout: string, target: string[]): Promise<RealReport> {
  const dir = mkdtempSync(join(tmpdir(), `mcpspec-${name}-`));
  // Few generated cases keep the runs short; the format tests compare each rendering with the report
  // it came from, whatever the verdicts are.
  let r = await cli(['server', '--stdio', '--seed', '1', '--timeout', timeout, '--runs', '5', '--out', dir, '--', ...target]);
  // On a loaded machine the target may not even answer initialize in time: once more, with the default timeout.
  if (r.code === 2) r = await cli(['server', '--stdio', '--seed', '1', '--runs', '5', '--out', dir, '--', ...target]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`mcpspec server (${name}) exited ${r.code}: ${r.err}${r.out.slice(-2000)}`);
  const file = join(dir, 'report.json');
  return { dir, file, report: JSON.parse(readFileSync(file, 'utf8')) as Report };
}

export async function realReports(): Promise<{ everything: RealReport; faulted: RealReport }> {
  const [everything, faulted] = await Promise.all([
    // server-everything leaves malformed messages unanswered, so each costs a timeout: a shorter one.
    // The reference fixture answers everything, so its long timeout costs nothing but keeps a loaded
    // machine from turning its slowness into hangs.
    run('everything', '5s', ['node', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio']),
    run('faulted', '30s', ['node', 'dist/fixtures/servers/reference/main.js', '--fault', 'tools.unknown-tool']),
  ]);
  return { everything, faulted };
}
