import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { TOOL_VERSION } from '../../protocol/tool-version.js';
import { VERSION_CHOICES, type VersionChoice } from '../../protocol/versions.js';
import { buildReport, exitCodeOf, type ReportOptions } from '../../reports/report.js';
import { HandshakeError } from '../../runner/base-session.js';
import { serverTargetOf, startCommandOf, type FuzzArgs } from '../fuzz-args.js';
import { DEFAULT_SHRINK_SHARE, describeSequence, fuzz, type FuzzEvent, type FuzzFinding } from '../../fuzz/server-campaign.js';
import { Progress } from '../progress.js';
import { fuzzRunResult } from '../../fuzz/fuzz-report.js';
import { Redactor, secretValues } from '../../runner/redact.js';
import { TargetStartError } from '../../runner/transport.js';
import { checkOutDir, duration, makeDirs, parseEnv } from '../target-args.js';
import { UsageError } from '../usage-error.js';

export function fuzzOptions(y: Argv) {
  return y
    .usage('mcpspec fuzz --stdio -- <command> [args...]\nmcpspec fuzz --url http://127.0.0.1:3000/mcp [--start -- <command> [args...]]\nmcpspec fuzz --url http://127.0.0.1:{port}/mcp --start -- node server.js --port {port}\nmcpspec fuzz client --http -- <client command with {url}>\nmcpspec fuzz client --stdio -- <client command with {server}>')
    .positional('role', { type: 'string', describe: 'client: fuzz a client (mcpspec serves near-valid and odd answers); default: a server' })
    .option('stdio', { type: 'boolean', default: false, describe: 'server: start the command given after -- afresh for every sequence; client: the client starts {server}' })
    .option('http', { type: 'boolean', default: false, describe: 'fuzz client: the client speaks Streamable HTTP to {url}' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint (each sequence gets a new session where the era has them)' })
    .option('start', { type: 'boolean', default: false, describe: 'with --url: start the server command given after -- afresh for every sequence and shrink step ({port} = a free port)' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value"; its value is redacted' })
    .option('spec-version', { type: 'string', default: 'auto', choices: VERSION_CHOICES as unknown as string[], describe: 'protocol version; auto probes with server/discover' })
    .option('runs', { type: 'number', describe: 'generated sequences (default 50, or unbounded with --time)' })
    .option('time', { type: 'string', describe: 'the whole campaign, shrinking included, ends after this long (60s, 5m)' })
    .option('deadline', { type: 'string', describe: 'a hard stop: whatever is under way then is stopped and what was found is reported' })
    .option('differential', { type: 'string', choices: ['eras', 'transports'], describe: 'run each sequence on two sides of the server and report answers that differ: its legacy and modern eras, or stdio and HTTP' })
    .option('http-args', { type: 'string', describe: 'with --differential transports: arguments that make the --stdio command serve Streamable HTTP on {port} (e.g. "--http --port {port}")' })
    .option('shrink-share', { type: 'number', default: DEFAULT_SHRINK_SHARE, describe: 'with --time: the part of it kept for shrinking once something is found (0 to 0.9)' })
    .option('seed', { type: 'number', describe: 'seed (printed, so a campaign can be repeated)' })
    .option('methods', { type: 'array', string: true, describe: 'only these methods (tools/call, resources/read and notification methods count)' })
    .option('skip-methods', { type: 'array', string: true, describe: 'never these methods' })
    .option('skip-tool', { type: 'array', string: true, describe: 'never call this tool' })
    .option('allow-destructive', { type: 'boolean', default: false, describe: 'also call tools not marked read-only / non-destructive' })
    .option('allow-open-world', { type: 'boolean', default: false, describe: 'also call tools marked openWorldHint' })
    .option('timeout', { type: 'string', default: '10s', describe: 'per-request timeout: silence is judged only after it' })
    .option('max-length', { type: 'number', default: 8, describe: 'longest generated sequence' })
    .option('concurrency', { type: 'number', default: 2, describe: 'sequences run at once, each on a fresh target' })
    .option('out', { type: 'string', describe: 'write report.json and one repro file per finding into this folder' })
    .option('json', { type: 'boolean', default: false, describe: 'print NDJSON events instead of the console summary' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the stdio target: K=V' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the stdio target by name" });
}

function positiveInt(n: number | undefined, name: string): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer, got ${n}`);
  return n;
}

/** Run a fuzz campaign; resolves to the exit code (0 nothing found, 1 a finding). */
export async function runFuzzCommand(args: FuzzArgs): Promise<number> {
  if (args.role === 'client') return (await import('./fuzz-client.js')).runFuzzClientCommand(args);
  if (args.role !== undefined && args.role !== 'server') throw new UsageError(`mcpspec fuzz ${args.role}: say client, or nothing for a server`);
  if (args.http) throw new UsageError('--http goes with mcpspec fuzz client; a server is fuzzed with --stdio or --url');
  if (!(VERSION_CHOICES as readonly string[]).includes(args['spec-version'])) throw new UsageError(`unknown --spec-version ${args['spec-version']}`);
  const target = serverTargetOf(args);
  const start = startCommandOf(args);
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  if (args.differential) return (await import('./fuzz-differential.js')).runDifferentialCommand(args, seed);
  const timeoutMs = duration(args.timeout, 'timeout');
  const timeMs = args.time !== undefined ? duration(args.time, 'time') : undefined;
  const runs = positiveInt(args.runs, 'runs');
  if (args.out) checkOutDir(args.out);
  const setEnv = parseEnv(args.env ?? []);
  const passEnv = args['pass-env'] ?? [];
  const redactor = new Redactor([...secretValues(process.env), ...Object.values(setEnv), ...(target.kind === 'http' ? Object.values(target.headers ?? {}) : [])]);
  const print = (e: unknown) => process.stdout.write(`${redactor.text(JSON.stringify(e))}\n`);
  const deadlineMs = args.deadline !== undefined ? duration(args.deadline, 'deadline') : undefined;
  const shrinkShare = args['shrink-share'] ?? DEFAULT_SHRINK_SHARE;
  if (!(shrinkShare >= 0 && shrinkShare <= 0.9)) throw new UsageError(`--shrink-share must be between 0 and 0.9, got ${args['shrink-share']}`);
  // The first SIGINT/SIGTERM stops the campaign (what was found is reported and written); a second one exits at once.
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupt.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = args.json ? undefined : new Progress(process.stderr).start();
  let line = { sequences: 0, steps: 0, findings: 0, shrinking: '', started: Date.now() };
  const draw = () => {
    const s = (Date.now() - line.started) / 1000;
    progress?.show(`mcpspec fuzz: ${line.sequences} sequences, ${s > 0 ? (line.steps / s).toFixed(1) : '0'} steps/s, ${line.findings} finding(s)${line.shrinking ? `, shrinking ${line.shrinking}` : ''}, ${s.toFixed(0)} s`);
  };
  const say = (text: string) => {
    progress?.clear();
    console.log(redactor.text(text));
    draw();
  };
  const onEvent = (e: FuzzEvent) => {
    if (args.json) return print(e);
    if (e.type === 'progress') line = { ...line, sequences: e.sequences, steps: e.steps, findings: e.findings };
    if (e.type === 'shrinking') line.shrinking = `${e.index}/${e.of}`;
    if (e.type === 'finding' && !e.finding.shrunk && !e.finding.shrinkNote) say(`found: ${findingLine(e.finding)} (seed ${e.finding.seed}, path ${e.finding.path}${e.finding.repro ? `; ${e.finding.repro}` : ''})`);
    draw();
  };
  let caught: NodeJS.Signals | undefined;
  const noteSignal = (signal: NodeJS.Signals) => (caught ??= signal);
  process.on('SIGINT', noteSignal);
  process.on('SIGTERM', noteSignal);
  let result;
  try {
    result = await fuzz(target, {
      specVersion: args['spec-version'] as VersionChoice,
      seed,
      runs,
      timeMs,
      deadlineMs,
      shrinkShare,
      timeoutMs,
      methods: args.methods,
      skipMethods: args['skip-methods'],
      skipTools: args['skip-tool'],
      allowDestructive: args['allow-destructive'],
      allowOpenWorld: args['allow-open-world'],
      maxLength: positiveInt(args['max-length'], 'max-length'),
      concurrency: positiveInt(args.concurrency, 'concurrency'),
      reproDir: args.out,
      env: { set: setEnv, pass: passEnv },
      start,
      signal: interrupt.signal,
      toolVersion: TOOL_VERSION,
      onEvent,
    });
  } catch (e) {
    if (e instanceof TargetStartError || e instanceof HandshakeError) throw new UsageError(redactor.text(`cannot fuzz the target: ${e.message}`));
    throw e;
  } finally {
    progress?.stop();
    for (const f of [onSignal, noteSignal]) {
      process.off('SIGINT', f);
      process.off('SIGTERM', f);
    }
  }
  const options: ReportOptions = {
    specVersion: args['spec-version'],
    strict: false,
    allowDestructive: args['allow-destructive'],
    allowOpenWorld: args['allow-open-world'],
    timeoutMs,
    deadlineMs: deadlineMs ?? timeMs ?? 0,
    seed,
    runs: result.runs,
  };
  const report = redactor.json(buildReport(fuzzRunResult(result), options, TOOL_VERSION));
  if (args.out) {
    try {
      makeDirs(args.out);
      writeFileSync(join(args.out, 'report.json'), JSON.stringify(report, null, 2));
    } catch (e) {
      throw new UsageError(`cannot write the report to ${args.out}: ${(e as Error).message}`);
    }
  }
  const rate = result.durationMs > 0 ? (result.steps / (result.durationMs / 1000)).toFixed(1) : '0';
  if (args.json) print({ type: 'run-end', summary: report.summary, seed, runs: result.runs, steps: result.steps, findings: result.findings.length });
  else {
    const lines = [`mcpspec fuzz: ${result.era.version} (${result.era.era}), ${result.runs} sequences, ${result.steps} steps in ${(result.durationMs / 1000).toFixed(1)} s (${rate} steps/s)`];
    lines.push(`  methods: ${result.profile.methods.join(', ') || '-'}; tools: ${result.profile.tools.map((t) => t.name).join(', ') || '-'}`);
    for (const n of result.notes) lines.push(`  note: ${n}`);
    if (result.startFailures) lines.push(`  ${result.startFailures} sequence(s) could not start a fresh target (not judged)`);
    if (result.stopped) lines.push(`  the run ${result.stopped}: what was under way then was stopped`);
    for (const f of result.findings) {
      lines.push('', `${findingLine(f)}  (${f.count} of ${result.runs} sequences)`);
      lines.push(`  rule: ${f.check} [${f.requirements.join(', ')}] ${f.spec}`);
      lines.push(`  ${f.shrunk ? 'minimal' : 'generated (not shrunk)'} sequence (${f.steps.length} step${f.steps.length === 1 ? '' : 's'}${f.shrunk ? `, ${f.shrinks} shrinks${f.shrinkBudgetReached ? ', shrink budget reached' : ''}` : ''}), seed ${f.seed}, path ${f.path}:`);
      if (f.shrinkNote) lines.push(`  ${f.shrinkNote}`);
      for (const l of describeSequence(f.steps)) lines.push(`    ${l}`);
      if (f.evidence.stderrTail) lines.push(`  stderr: ${f.evidence.stderrTail.trim().split('\n').slice(-1)[0]?.slice(0, 200)}`);
      if (f.repro) lines.push(`  repro: ${f.repro}  (mcpspec replay ${f.repro})`);
    }
    lines.push('', result.findings.length ? `${result.findings.length} finding(s)` : 'no findings', `seed: ${seed} (repeat with --seed ${seed})`);
    if (args.out) lines.push(`report: ${join(args.out, 'report.json')}`);
    console.log(redactor.text(lines.join('\n')));
  }
  if (result.runs === 0) throw new UsageError('no sequence ran: nothing was judged');
  if (result.findings.length) return 1;
  // Interrupted with nothing found: not a clean pass (the conventional 128 + signal number).
  if (caught) return caught === 'SIGINT' ? 130 : 143;
  return exitCodeOf(report) === 2 ? 2 : 0;
}

function findingLine(f: FuzzFinding): string {
  return `${f.level === 'MUST' ? 'FAIL' : 'WARN'} ${f.check} (${f.oracle}) at ${f.method}: ${f.message.split('\n')[0]}`;
}
