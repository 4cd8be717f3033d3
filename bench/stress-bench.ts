// Stress run for false failures: the full server suite against the (correct) reference fixture,
// several CLI runs at once on a machine loaded with CPU hogs. Every run that does not exit 0 is a
// false failure: a verdict that came from timing, not from the server. Warnings and untestable
// verdicts in runs that exit 0 are counted beside them: on the correct fixture they are just as false.
//
// Run alone:  npm run build && node dist/bench/run.js stress [--stress-runs=N]
// (also a section of `npm run bench`). Defaults: 24 runs in waves of 4, 2 CPU hogs, stdio and
// HTTP alternating over the three spec versions, seed = run number; everything still running
// after 10 minutes is killed and only the finished runs are reported.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median, runToExit, spawnTracked, startCpuHogs, stop, type Finished } from './processes.js';

const MCPSPEC = fileURLToPath(new URL('../cli/mcpspec.js', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../fixtures/servers/reference/main.js', import.meta.url));
const VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
// Untestable on the plain fixture by design, loaded or not: it declares every gated capability
// (the conformance test judges this check on a second server started --without-logging).
const UNTESTABLE_BY_DESIGN = new Set(['capabilities.undeclared-method']);

export interface StressOptions {
  runs: number;
  concurrency: number;
  hogs: number;
  /** The whole section, hogs included. */
  deadlineMs: number;
  /** One CLI run; well above mcpspec's own per-request timeouts. */
  runTimeoutMs: number;
}

export const STRESS_DEFAULTS: StressOptions = { runs: 24, concurrency: 4, hogs: 2, deadlineMs: 600_000, runTimeoutMs: 180_000 };

interface Plan {
  n: number;
  transport: 'stdio' | 'http';
  version: (typeof VERSIONS)[number];
  seed: number;
}

interface Outcome extends Plan {
  result: Finished | undefined;
  /** Why this run is a false failure, one line per failing check; empty when it passed. */
  failures: string[];
  /** Warnings and untestable verdicts of the run (the fixture is correct: each is false too). */
  soft: string[];
}

function plan(runs: number): Plan[] {
  return Array.from({ length: runs }, (_, i) => ({ n: i + 1, transport: i % 2 ? 'http' : 'stdio', version: VERSIONS[Math.floor(i / 2) % VERSIONS.length], seed: i + 1 }));
}

/** The reference server in HTTP mode; resolves once it printed its URL (30 s at most, the machine is loaded). */
async function startReferenceHttp(signal: AbortSignal): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = spawnTracked(process.execPath, [REFERENCE, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: proc.stdout! });
  try {
    let cleanup = () => undefined as void;
    const url = await new Promise<string>((resolve, reject) => {
      const fail = (why: string) => reject(new Error(`reference server: ${why}`));
      const t = setTimeout(() => fail('no "listening" line within 30 s'), 30_000);
      const onAbort = () => fail('aborted by the section deadline');
      signal.addEventListener('abort', onAbort, { once: true });
      cleanup = () => {
        clearTimeout(t);
        signal.removeEventListener('abort', onAbort);
      };
      proc.once('exit', (code) => fail(`exited (${code}) before listening`));
      lines.once('line', (line) => {
        const m = /listening (http:\/\/\S+)/.exec(line);
        if (m) resolve(m[1]);
        else fail(`unexpected first line ${JSON.stringify(line)}`);
      });
    }).finally(() => cleanup());
    proc.stdout!.resume(); // keep draining anything it prints later
    return { url, stop: () => stop(proc) };
  } catch (e) {
    await stop(proc);
    throw e;
  }
}

/** The checks of a finished run with one of `statuses` (and crash/hang findings with fail), from its report.json. */
async function failingChecks(reportPath: string, statuses = ['fail', 'error']): Promise<string[] | undefined> {
  try {
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as { checks?: { id: string; status: string; message?: string }[]; findings?: unknown[] };
    const lines = (report.checks ?? []).filter((c) => statuses.includes(c.status)).map((c) => `${c.id} [${c.status}]: ${c.message ?? ''}`);
    if (!statuses.includes('fail')) return lines;
    for (const f of report.findings ?? []) lines.push(`finding: ${JSON.stringify(f).slice(0, 300)}`);
    return lines;
  } catch {
    return undefined; // no report: the CLI itself failed or was killed
  }
}

async function runOnce(p: Plan, dir: string, signal: AbortSignal, timeoutMs: number): Promise<Outcome> {
  const out = join(dir, `run-${p.n}`);
  let server: { url: string; stop: () => Promise<void> } | undefined;
  try {
    if (p.transport === 'http') server = await startReferenceHttp(signal);
    const target = server ? ['--url', server.url] : ['--stdio', '--', process.execPath, REFERENCE];
    // The target goes last: everything after `--` is the server's command line.
    const args = [MCPSPEC, 'server', '--spec-version', p.version, '--seed', String(p.seed), '--out', out, ...target];
    const result = await runToExit(process.execPath, args, { timeoutMs, signal });
    if (result.killed === 'aborted') return { ...p, result, failures: [], soft: [] };
    const soft = ((await failingChecks(join(out, 'report.json'), ['warn', 'untestable'])) ?? []).filter((l) => !UNTESTABLE_BY_DESIGN.has(l.split(' ')[0]));
    if (result.code === 0) return { ...p, result, failures: [], soft };
    const checks = await failingChecks(join(out, 'report.json'));
    const why = checks?.length ? checks : [`exit ${result.code ?? 'by signal'}${result.killed ? ` (killed: ${result.killed})` : ''}; output tail: ${result.output.trim().split('\n').slice(-3).join(' / ')}`];
    return { ...p, result, failures: why, soft };
  } catch (e) {
    if (signal.aborted) return { ...p, result: undefined, failures: [], soft: [] };
    return { ...p, result: undefined, failures: [`could not run: ${(e as Error).message}`], soft: [] };
  } finally {
    await server?.stop();
  }
}

const label = (o: Plan) => `#${o.n} ${o.transport} ${o.version} seed ${o.seed}`;

/** Run the stress plan and return a report: each false failure with its checks, then a table. */
export async function benchStress(options: Partial<StressOptions> = {}): Promise<string> {
  const o = { ...STRESS_DEFAULTS, ...options };
  const dir = await mkdtemp(join(tmpdir(), 'mcpspec-stress-'));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), o.deadlineMs);
  const stopHogs = startCpuHogs(o.hogs);
  const outcomes: Outcome[] = [];
  const t0 = performance.now();
  try {
    const runs = plan(o.runs);
    // Waves: each wave starts `concurrency` runs at the same moment, the most contended start-up.
    for (let i = 0; i < runs.length && !deadline.signal.aborted; i += o.concurrency) {
      const wave = runs.slice(i, i + o.concurrency);
      outcomes.push(...(await Promise.all(wave.map((p) => runOnce(p, dir, deadline.signal, o.runTimeoutMs)))));
    }
  } finally {
    clearTimeout(timer);
    await stopHogs();
    await rm(dir, { recursive: true, force: true });
  }
  const wall = (performance.now() - t0) / 1000;

  // A run cut by the deadline judged nothing, so it is neither a pass nor a false failure.
  const cut = (x: Outcome) => x.result?.killed === 'aborted' || (!x.result && !x.failures.length);
  const finished = outcomes.filter((x) => !cut(x));
  const falseFailures = finished.filter((x) => x.failures.length);
  const softRuns = finished.filter((x) => x.soft.length);
  const seconds = finished.flatMap((x) => (x.result ? [x.result.seconds] : []));
  const lines: string[] = [];
  for (const f of falseFailures) {
    lines.push(`FALSE FAILURE ${label(f)} (exit ${f.result?.code ?? '-'}, ${f.result ? f.result.seconds.toFixed(1) : '-'} s)`);
    for (const why of f.failures) lines.push(`  ${why}`);
  }
  for (const f of softRuns) {
    lines.push(`FALSE WARNING OR UNTESTABLE ${label(f)}`);
    for (const why of f.soft) lines.push(`  ${why}`);
  }
  if (lines.length) lines.push('');
  lines.push(
    `${o.hogs} CPU hogs, ${o.concurrency} runs at once, on ${process.platform} with ${availableParallelism()} cores`,
    '',
    '| runs planned | runs finished | false failures | runs with a warning or untestable | wall time | per-run median | per-run max |',
    '|---|---|---|---|---|---|---|',
    `| ${o.runs} | ${finished.length}${deadline.signal.aborted ? ` (cut at ${o.deadlineMs / 1000} s)` : ''} | ${falseFailures.length} | ${softRuns.length} | ${wall.toFixed(1)} s | ${median(seconds).toFixed(1)} s | ${Math.max(...seconds, 0).toFixed(1)} s |`,
  );
  const byKind = new Map<string, { runs: number; fails: number }>();
  for (const x of finished) {
    const k = `${x.transport} ${x.version}`;
    const row = byKind.get(k) ?? { runs: 0, fails: 0 };
    row.runs++;
    if (x.failures.length) row.fails++;
    byKind.set(k, row);
  }
  lines.push('', '| transport / version | runs | false failures |', '|---|---|---|');
  for (const [k, v] of [...byKind].sort()) lines.push(`| ${k} | ${v.runs} | ${v.fails} |`);
  return lines.join('\n');
}
