// `npm run mutation`: mcpspec's own mutation score. Every applicable mutation of the catalogue is run
// against real targets nobody on this project wrote (server-everything over stdio and HTTP, the 1.x
// SDK's example server, a server on the 2.x SDK with tasks from @modelcontextprotocol/ext-tasks) and
// real clients (the 2.x and 1.x SDK clients), each run through `mcpspec mutate`; the verdicts are
// compared with the same target's baseline run. Prints per area and in total: killed, unrelated,
// survived, equivalent (mutation/equivalent.md), not applicable, error.
//
//   node dist/bench/mutation-score.js [--targets a,b] [--only GLOB,GLOB] [--skip GLOB,GLOB] [--fast] [--jobs N] [--timeout 6s] [--client-timeout 10s] [--json FILE]
//
// --fast: one mutation per area and role (the e2e subset). Each baseline also runs through the
// proxy with the mutation that changes nothing; its verdicts must equal the direct run's.

import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { globToRegExp } from '../runner/globs.js';
import { mutationArea, MUTATIONS } from '../mutation/catalogue.js';
import { decidableOffline, wouldApply } from '../mutation/dry-run.js';
import type { Mutation } from '../mutation/mutation.js';
import type { WireEvent } from '../results/wire.js';
import { formatTally, judgeMutant, parseEquivalent, tally, verdictDiff, worsened, type MutantResult, type RunFacts, type VerdictLine } from '../mutation/score.js';
import { packageRoot } from '../protocol/package-root.js';
import { freePort, EVERYTHING } from './everything.js';
import { runToExit, spawnTracked, stop } from './processes.js';

const require = createRequire(import.meta.url);
const ROOT = packageRoot();
const NODE = process.execPath;
const MCPSPEC = join(ROOT, 'dist', 'cli', 'mcpspec.js');
const LOOPBACK = join(ROOT, 'test', 'helpers', 'loopback-only.mjs');
const SDK2 = join(ROOT, 'dist', 'fixtures', 'servers', 'sdk2', 'server.js');
const SDK1_EXAMPLE = () => require.resolve('@modelcontextprotocol/sdk/examples/server/simpleStreamableHttp.js').replace(/([/])cjs([/])/, '$1esm$2');

/** A started HTTP server: its endpoint and how to stop it. */
interface Started {
  url: string;
  stop(): Promise<void>;
}

export interface ScoreTarget {
  name: string;
  role: 'server' | 'client';
  transport: 'stdio' | 'http';
  /** The mcpspec arguments after the command word, with the proxy (`mutate` words) in place when given. */
  argv(proxy: string[] | undefined, http?: string): string[];
  /** HTTP servers: started fresh for each run. */
  start?(): Promise<Started>;
}

function mutateWords(id: string, log: string, transport: 'stdio'): string[] {
  return [NODE, MCPSPEC, 'mutate', id, '--applied-log', log, `--${transport}`, '--'];
}

/** Waits until something accepts connections on the URL's port (any HTTP answer will do). */
async function waitForHttp(url: string, child: { exitCode: number | null }, what: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until && child.exitCode === null) {
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what} did not start listening within 30 s`);
}

async function startWithPort(what: string, args: string[], env: (port: number) => Record<string, string>): Promise<Started> {
  const port = await freePort();
  const child = spawnTracked(NODE, ['--import', LOOPBACK, ...args], { env: { ...process.env, ...env(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  try {
    await waitForHttp(url, child, what);
  } catch (e) {
    await stop(child);
    throw e;
  }
  return { url, stop: () => stop(child) };
}

async function startSdk2Http(): Promise<Started> {
  const child = spawnTracked(NODE, [SDK2, '--http', '--port', '0', '--tasks'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const t = setTimeout(() => reject(new Error('the sdk2 fixture did not print its URL within 30 s')), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening (http\S+)/.exec(text);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
    child.once('exit', () => reject(new Error('the sdk2 fixture exited before listening')));
  });
  return { url, stop: () => stop(child) };
}

// --strict: a SHOULD broken shows as a warning, and a warning citing the rule is as much a catch as a failure.
const common = (out: string, timeout: string) => ['--seed', '1', '--strict', '--timeout', timeout, '--out', out];

export function scoreTargets(timeout: string, clientTimeout: string): Record<string, (out: string) => ScoreTarget> {
  const server = (name: string, transport: 'stdio' | 'http', command: string[], start?: () => Promise<Started>, extra: string[] = []) => (out: string): ScoreTarget => ({
    name,
    role: 'server',
    transport,
    start,
    argv: (proxy, http) => (transport === 'stdio' ? ['server', ...common(out, timeout), ...extra, '--stdio', '--', ...(proxy ?? []), ...command] : ['server', ...common(out, timeout), ...extra, '--url', http!]),
  });
  // A client run's timeout also bounds how long the client may run: it starts a proxy and a relay.
  const client = (name: string, script: string) => (out: string): ScoreTarget => ({
    name,
    role: 'client',
    transport: 'stdio',
    argv: (proxy) => ['client', ...common(out, clientTimeout), '--stdio', '--', NODE, join(ROOT, 'test', 'e2e', 'clients', script), '--stdio', ...(proxy ?? []), '{server}'],
  });
  return {
    'everything-stdio': server('everything-stdio', 'stdio', [NODE, EVERYTHING, 'stdio']),
    'everything-http': server('everything-http', 'http', [], () => startWithPort('server-everything', [EVERYTHING, 'streamableHttp'], (p) => ({ PORT: String(p) }))),
    'sdk1-http': server('sdk1-http', 'http', [], () => startWithPort('the 1.x SDK example', [SDK1_EXAMPLE()], (p) => ({ MCP_PORT: String(p) }))),
    'sdk2-tasks-stdio': server('sdk2-tasks-stdio', 'stdio', [NODE, SDK2, '--tasks']),
    // The same dual-era server judged in its legacy era (the modern run leaves that era's rules out).
    'sdk2-tasks-stdio-legacy': server('sdk2-tasks-stdio-legacy', 'stdio', [NODE, SDK2, '--tasks'], undefined, ['--spec-version', '2025-11-25']),
    'sdk2-tasks-http': server('sdk2-tasks-http', 'http', [], startSdk2Http),
    'sdk2-client': client('sdk2-client', 'sdk2-client.mjs'),
    'sdk1-client': client('sdk1-client', 'sdk1-client.mjs'),
  };
}

function readFacts(out: string, log: string | undefined, exitCode: number | null): RunFacts & { events: WireEvent[]; era?: string } {
  const applied = log && existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
  const file = join(out, 'report.json');
  if (!existsSync(file)) return { checks: null, exitCode, applied, targetFindings: 0, events: [] };
  const r = JSON.parse(readFileSync(file, 'utf8')) as { checks: (Omit<VerdictLine, 'evidence'> & { evidence?: { what?: string; pointer?: string }[] })[]; findings?: { kind: string }[]; era?: { era?: string } };
  const checks = r.checks.map(({ id, status, requirements, message, evidence }) => ({ id, status, requirements, message, evidence: (evidence ?? []).map((e) => `${e.what ?? ''} ${e.pointer ?? ''}`) }));
  const recording = join(out, 'recording.json');
  const events = existsSync(recording) ? (JSON.parse(readFileSync(recording, 'utf8')) as { events: WireEvent[] }).events : [];
  return { checks, exitCode, applied, targetFindings: (r.findings ?? []).filter((f) => f.kind === 'crash' || f.kind === 'hang').length, events, era: r.era?.era };
}

/** One run of mcpspec against a target, through the proxy with `mutationId` when given. */
export async function runOnce(make: (out: string) => ScoreTarget, mutationId: string | undefined): Promise<RunFacts & { output: string; events: WireEvent[]; era?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-mutant-'));
  const out = join(dir, 'out');
  const log = mutationId ? join(dir, 'applied.ndjson') : undefined;
  const target = make(out);
  const started: Started[] = [];
  try {
    let http: string | undefined;
    let proxy: string[] | undefined;
    if (target.start) {
      const server = await target.start();
      started.push(server);
      http = server.url;
      if (mutationId) {
        const p = spawnTracked(NODE, [MCPSPEC, 'mutate', mutationId, '--applied-log', log!, '--url', server.url], { stdio: ['ignore', 'pipe', 'ignore'] });
        started.push({ url: '', stop: () => stop(p) });
        http = await new Promise<string>((resolve, reject) => {
          let text = '';
          const t = setTimeout(() => reject(new Error('the mutating proxy did not listen within 20 s')), 20_000);
          p.stdout!.on('data', (c: Buffer) => {
            const m = /listening (http\S+)/.exec((text += c.toString()));
            if (m) {
              clearTimeout(t);
              resolve(m[1]);
            }
          });
        });
      }
    } else if (mutationId) {
      proxy = mutateWords(mutationId, log!, 'stdio');
    }
    const run = await runToExit(NODE, [MCPSPEC, ...target.argv(proxy, http)], { timeoutMs: 300_000, keepStdinOpen: false });
    return { ...readFacts(out, log, run.killed ? null : run.code), output: run.output };
  } finally {
    for (const s of started.reverse()) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The mutations that can apply to a target: its role and transport (its traffic decides the rest). */
export function mutationsFor(target: ScoreTarget, all: Mutation[]): Mutation[] {
  return all.filter((m) => m.role === target.role && m.transports.includes(target.transport));
}

/** One mutation per area and role: the first of each (the fast subset). */
export function fastSubset(all: Mutation[]): Mutation[] {
  const seen = new Set<string>();
  return all.filter((m) => {
    const k = `${m.role}:${mutationArea(m.id)}:${m.transports.join('+')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

async function pool<T, R>(items: T[], jobs: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export interface TargetScore {
  target: string;
  /** Verdicts that differ between the direct run and the run through the proxy that changes nothing (must be empty). */
  transparency: string[];
  results: MutantResult[];
}

export async function scoreTarget(name: string, make: (out: string) => ScoreTarget, chosen: Mutation[], jobs: number, log: (s: string) => void): Promise<TargetScore> {
  const equivalents = parseEquivalent(existsSync(join(ROOT, 'mutation', 'equivalent.md')) ? readFileSync(join(ROOT, 'mutation', 'equivalent.md'), 'utf8') : '');
  const [baseline, through] = await pool([undefined, 'identity'], 2, (m) => runOnce(make, m));
  if (!baseline.checks) throw new Error(`${name}: the baseline run produced no report:\n${baseline.output}`);
  const transparency = through.checks ? verdictDiff(baseline.checks, through.checks) : ['the run through the proxy produced no report'];
  // A verdict that moves between untestable and pass on its own (what the target did on its timers)
  // still makes a failure news: only checks whose two runs differ in failing are set aside.
  const unstable = new Set(through.checks ? [...worsened(baseline.checks, through.checks), ...worsened(through.checks, baseline.checks)].map((w) => w.line.id) : transparency.map((d) => d.split(':')[0]));
  log(`${name}: baseline exit ${baseline.exitCode}, ${baseline.checks.length} checks; through the identity proxy: ${transparency.length ? transparency.join('; ') : 'same verdicts'}`);
  const shape = make('');
  const mine = mutationsFor(shape, chosen);
  const results = await pool(mine, jobs, async (m) => {
    // The run judges one era (a dual-era server's modern run opens legacy sessions only to probe
    // versions): a mutation of the other era's rules is not applicable there, like one of another
    // transport. Such a server's other era is judged by its own run (--spec-version).
    if (baseline.era && !(m.eras as readonly string[]).includes(baseline.era)) {
      log(`${name}  ${m.id}: not-applicable (the run judges the ${baseline.era} era)`);
      return { mutation: m.id, target: name, outcome: 'not-applicable', by: [], applied: 0, exitCode: null, note: `the run judges the ${baseline.era} era` } satisfies MutantResult;
    }
    // Nothing in the baseline's traffic that the mutation would change: not applicable, without a run.
    if (decidableOffline(m) && !wouldApply(m, baseline.events, shape.role, shape.transport)) {
      const r: MutantResult = { mutation: m.id, target: name, outcome: 'not-applicable', by: [], applied: 0, exitCode: null, note: 'nothing to change in the baseline traffic' };
      log(`${name}  ${m.id}: not-applicable (baseline traffic)`);
      return r;
    }
    const facts = await runOnce(make, m.id);
    const eq = equivalents.get(m.id);
    const r = judgeMutant(m, name, baseline, facts, Boolean(eq && (eq.targets === '*' || eq.targets.includes(name))), unstable);
    log(`${name}  ${m.id}: ${r.outcome}${r.by.length ? ` (${r.by.slice(0, 3).join('; ')})` : ''}`);
    return r;
  });
  return { target: name, transparency, results };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  // Longer than the longest wait a target imposes by design (server-everything's task takes 4 s).
  const timeout = value('--timeout') ?? '6s';
  const jobs = Number(value('--jobs') ?? 2);
  const targets = scoreTargets(timeout, value('--client-timeout') ?? '10s');
  // Clients first (short runs), then the stdio servers, then HTTP.
  const names = value('--targets')?.split(',') ?? ['sdk2-client', 'sdk1-client', 'everything-stdio', 'sdk2-tasks-stdio', 'sdk2-tasks-stdio-legacy', 'everything-http', 'sdk2-tasks-http', 'sdk1-http'];
  for (const n of names) if (!targets[n]) throw new Error(`unknown target ${n}; known: ${Object.keys(targets).join(', ')}`);
  const globs = (v: string | undefined) => v?.split(',').map((g) => globToRegExp(g.trim()));
  const only = globs(value('--only'));
  const skip = globs(value('--skip'));
  let chosen = MUTATIONS.filter((m) => (!only || only.some((g) => g.test(m.id))) && !skip?.some((g) => g.test(m.id)));
  if (args.includes('--fast')) chosen = fastSubset(chosen);
  const t0 = Date.now();
  const scores: TargetScore[] = [];
  const json = value('--json');
  for (const n of names) {
    scores.push(await scoreTarget(n, targets[n], chosen, jobs, (s) => process.stderr.write(`${s}\n`)));
    // Written after each target, so a long run that is stopped keeps what it measured.
    if (json) writeFileSync(json, `${JSON.stringify(scores, null, 2)}\n`);
  }
  const all = scores.flatMap((s) => s.results);
  const lines: string[] = [`## Mutation score (${chosen.length} mutations, ${names.length} targets, ${((Date.now() - t0) / 1000).toFixed(0)} s)`, ''];
  for (const role of ['server', 'client'] as const) {
    const mine = scores.filter((s) => targets[s.target]('').role === role).flatMap((s) => s.results);
    if (mine.length) lines.push(formatTally(`${role}s: ${scores.filter((s) => targets[s.target]('').role === role).map((s) => s.target).join(', ')}`, tally(mine, mutationArea)), '');
  }
  for (const s of scores) lines.push(formatTally(s.target, tally(s.results, mutationArea)), '');
  lines.push('### Survivors', '');
  for (const r of all.filter((x) => x.outcome === 'survived' || x.outcome === 'unrelated')) lines.push(`- ${r.target} \`${r.mutation}\`: ${r.outcome}${r.by.length ? ` (${r.by.slice(0, 3).join('; ')})` : ''}`);
  lines.push('', '### Transparency (direct run against the run through the identity proxy)', '');
  for (const s of scores) lines.push(`- ${s.target}: ${s.transparency.length ? s.transparency.join('; ') : 'same verdicts'}`);
  console.log(lines.join('\n'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: Error) => {
    console.error(e.stack ?? String(e));
    process.exitCode = 1;
  });
}
