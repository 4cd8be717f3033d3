import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { runServerSuite, type RunEvent, type TargetSpec } from '../../runner/engine.js';
import { HandshakeError } from '../../runner/session-types.js';
import { TargetStartError } from '../../runner/transport.js';
import { renderConsole } from '../../reports/console.js';
import { buildReport, exitCodeOf } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';
import { TOOL_VERSION } from '../tool-version.js';

const VERSIONS = ['auto', '2026-07-28', '2025-11-25', '2025-06-18'] as const;

export function serverOptions(y: Argv) {
  return y
    .usage('mcpspec server --stdio -- <command> [args...]\nmcpspec server --url http://127.0.0.1:3000/mcp')
    .option('stdio', { type: 'boolean', default: false, describe: 'start the server command given after -- and speak over its stdin/stdout' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value" (e.g. Authorization)' })
    .option('spec-version', { type: 'string', default: 'auto', choices: VERSIONS as unknown as string[], describe: 'protocol version; auto probes with server/discover and falls back to initialize' })
    .option('only', { type: 'array', string: true, describe: 'run only checks whose id matches a glob (tools.*)' })
    .option('skip', { type: 'array', string: true, describe: 'skip checks whose id matches a glob' })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD violations (warnings) fail the run' })
    .option('json', { type: 'boolean', default: false, describe: 'print NDJSON events instead of the console report' })
    .option('out', { type: 'string', describe: 'write report.json (and recording.json) into this folder' })
    .option('timeout', { type: 'number', default: 10_000, describe: 'per-request timeout in ms' })
    .option('tool-timeout', { type: 'number', default: 1500, describe: 'budget for one generated tool call in ms; slower calls are reported as not judged' })
    .option('deadline', { type: 'number', default: 300_000, describe: 'overall deadline for the run in ms' })
    .option('allow-destructive', { type: 'boolean', default: false, describe: 'also call tools not marked read-only / non-destructive' })
    .option('seed', { type: 'number', describe: 'seed for generated inputs (printed, so a run can be repeated)' })
    .option('runs', { type: 'number', default: 20, describe: 'generated cases per property' })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run at once, each on its own session (1 = one after another)' })
    .option('color', { type: 'boolean', describe: 'colour the console report (default: when stdout is a terminal)' });
}

export interface ServerArgs {
  stdio: boolean;
  url?: string;
  header?: string[];
  'spec-version': string;
  only?: string[];
  skip?: string[];
  strict: boolean;
  json: boolean;
  out?: string;
  timeout: number;
  'tool-timeout': number;
  deadline: number;
  'allow-destructive': boolean;
  seed?: number;
  runs: number;
  concurrency: number;
  color?: boolean;
  '--'?: (string | number)[];
  _: (string | number)[];
}

function targetOf(args: ServerArgs): TargetSpec {
  const command = (args['--'] ?? []).map(String);
  if (args.stdio && args.url) throw new UsageError('give either --stdio -- <command> or --url, not both');
  if (args.stdio) {
    if (command.length === 0) throw new UsageError('--stdio needs the server command after --, e.g. mcpspec server --stdio -- node server.js');
    return { kind: 'stdio', command: command[0], args: command.slice(1) };
  }
  if (args.url) {
    let u: URL;
    try {
      u = new URL(args.url);
    } catch {
      throw new UsageError(`--url is not a URL: ${args.url}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--url must be http or https, got ${u.protocol}`);
    const headers: Record<string, string> = {};
    for (const h of args.header ?? []) {
      const i = h.indexOf(':');
      if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`);
      headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
    }
    return { kind: 'http', url: args.url, headers };
  }
  throw new UsageError('say which server to test: --stdio -- <command> or --url <endpoint>');
}

function positive(n: number, name: string): number {
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, got ${n}`);
  return n;
}

/** Run the server suite; resolves to the exit code. */
export async function runServerCommand(args: ServerArgs): Promise<number> {
  if (!(VERSIONS as readonly string[]).includes(args['spec-version'])) {
    throw new UsageError(`unknown --spec-version ${args['spec-version']}; choose one of ${VERSIONS.join(', ')}`);
  }
  const target = targetOf(args);
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const options = {
    strict: args.strict, only: args.only, skip: args.skip, allowDestructive: args['allow-destructive'],
    timeoutMs: positive(args.timeout, 'timeout'), toolTimeoutMs: positive(args['tool-timeout'], 'tool-timeout'), seed, runs: Math.floor(positive(args.runs, 'runs')),
  };
  const print = (e: RunEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);
  let run;
  try {
    run = await runServerSuite(target, {
      ...options,
      specVersion: args['spec-version'] as never,
      deadlineMs: positive(args.deadline, 'deadline'),
      concurrency: Math.floor(positive(args.concurrency, 'concurrency')),
      onEvent: args.json ? print : undefined,
    });
  } catch (e) {
    if (e instanceof TargetStartError || e instanceof HandshakeError) {
      const tail = e instanceof HandshakeError && e.stderrTail ? ` (stderr: ${e.stderrTail.trim().split('\n').slice(-1)[0]?.slice(0, 200)})` : '';
      throw new UsageError(`cannot test the target: ${e.message}${tail}`);
    }
    throw e;
  }
  const report = buildReport(run, options, TOOL_VERSION);
  if (args.json) print({ type: 'run-end', summary: report.summary, seed } as never);
  else {
    console.log(renderConsole(report, { color: args.color ?? process.stdout.isTTY === true }));
    console.log(`seed: ${seed} (repeat with --seed ${seed})`);
  }
  if (args.out) {
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(args.out, 'recording.json'), JSON.stringify(run.recording.toJSON()));
    if (!args.json) console.log(`report: ${join(args.out, 'report.json')}`);
  }
  return exitCodeOf(report);
}
