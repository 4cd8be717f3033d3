// Startup and memory: `mcpspec --version` beside a bare `node -e ''` (whole processes, median of
// several), how soon `mcpspec server` sends the bundled reference its first request, and the peak RSS
// of mcpspec's own process over a whole run on the reference fixture (its targets are separate
// processes and not counted). The program measured is the package's `bin` (the bundled dist/cli).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';

const ROOT = packageRoot();
const CLI = join(ROOT, 'dist', 'cli', 'mcpspec.js');
const REFERENCE = join(ROOT, 'dist', 'fixtures', 'servers', 'reference', 'main.js');

function timeOnce(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(process.execPath, args, { stdio: 'ignore' });
    p.on('error', reject);
    p.on('exit', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

async function median(args: string[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeOnce(args));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Peak RSS (KiB) of the CLI process over one run: it reports its own resource usage on exit. */
function peakRss(cliArgs: string[]): Promise<{ kib: number; code: number | null }> {
  const wrapper = `process.on('exit', () => process.stderr.write('\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n')); process.argv.splice(1, 1, ${JSON.stringify(CLI)}); await import(${JSON.stringify(CLI)});`;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', wrapper, CLI, ...cliArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ kib: Number(/MAXRSS (\d+)/.exec(err)?.[1] ?? NaN), code }));
  });
}

/**
 * Milliseconds from spawning `mcpspec server --stdio` to the first byte of its first request reaching
 * the reference server. A shell in front of the server notes the moment (GNU `head -c 1` reads one
 * byte, so nothing is lost; the rest is passed on by `cat`); the run is stopped once it is noted.
 */
async function firstRequestMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-first-'));
  const mark = join(dir, 'first');
  const shim = `exec 3>>'${mark}'; { head -c 1; date +%s%N >&3; cat; } | exec '${process.execPath}' '${REFERENCE}'`;
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const p = spawn(process.execPath, [CLI, 'server', '--seed', '1', '--stdio', '--', '/bin/sh', '-c', shim], { stdio: 'ignore' });
  const exited = new Promise((resolve) => p.on('exit', resolve));
  try {
    const deadline = Date.now() + 30_000;
    while (!(existsSync(mark) && readFileSync(mark, 'utf8').includes('\n'))) {
      if (Date.now() > deadline || p.exitCode !== null) throw new Error('the first request never reached the reference server');
      await new Promise((r) => setTimeout(r, 2));
    }
    return Number(BigInt(readFileSync(mark, 'utf8').split('\n')[0].trim()) - t0) / 1e6;
  } finally {
    // Stopped once the moment is noted, or on the way out of a failure (mcpspec reaps its target).
    if (p.exitCode === null && p.signalCode === null) p.kill();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<string> {
  const runs = 15;
  const bare = await median(['-e', ''], runs);
  const version = await median([CLI, '--version'], runs);
  const help = await median([CLI, '--help'], runs);
  const firsts: number[] = [];
  for (let i = 0; i < 9; i++) firsts.push(await firstRequestMs());
  firsts.sort((a, b) => a - b);
  const first = firsts[Math.floor(firsts.length / 2)];
  const stdio = await peakRss(['server', '--seed', '1', '--stdio', '--', process.execPath, REFERENCE]);
  const lines = [
    `| measure | mcpspec | bare node -e '' | difference |`,
    `|---|---|---|---|`,
    `| --version, median of ${runs} whole processes | ${version.toFixed(0)} ms | ${bare.toFixed(0)} ms | +${(version - bare).toFixed(0)} ms (target: within 50 ms) |`,
    `| --help, median of ${runs} | ${help.toFixed(0)} ms | ${bare.toFixed(0)} ms | +${(help - bare).toFixed(0)} ms |`,
    `| first request reaches the reference server (stdio), median of ${firsts.length} runs from spawning mcpspec | ${first.toFixed(0)} ms | | target: within 150 ms (range ${firsts[0].toFixed(0)}-${firsts[firsts.length - 1].toFixed(0)} ms) |`,
    `| peak RSS of a whole server run on the reference fixture (stdio; exit ${stdio.code}) | ${(stdio.kib / 1024).toFixed(0)} MB | | target: under 150 MB |`,
  ];
  return lines.join('\n');
}
