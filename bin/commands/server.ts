import { mkdirSync, writeFileSync, accessSync, constants, existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { parseDuration } from '../../protocol/duration.js';
import { TOOL_VERSION } from '../../protocol/tool-version.js';
import { VERSION_CHOICES, type VersionChoice } from '../../protocol/versions.js';
import type { RunEvent } from '../../results/run.js';
import { renderConsole } from '../../reports/console.js';
import { buildReport, exitCodeOf, type ReportOptions } from '../../reports/report.js';
import { HandshakeError } from '../../runner/base-session.js';
import { Redactor, secretValues } from '../../runner/redact.js';
import { runServerSuite } from '../../runner/run-server.js';
import type { ServerTarget } from '../../runner/server-driver.js';
import { TargetStartError } from '../../runner/transport.js';
import { UsageError } from '../usage-error.js';

export function serverOptions(y: Argv) {
  return y
    .usage('mcpspec server --stdio -- <command> [args...]\nmcpspec server --url http://127.0.0.1:3000/mcp')
    .option('stdio', { type: 'boolean', default: false, describe: 'start the server command given after -- and speak over its stdin/stdout' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value" (e.g. Authorization); its value is redacted in reports' })
    .option('spec-version', { type: 'string', default: 'auto', choices: VERSION_CHOICES as unknown as string[], describe: 'protocol version; auto probes with server/discover and falls back to initialize' })
    .option('only', { type: 'array', string: true, describe: 'run only checks whose id matches a glob (tools.*)' })
    .option('skip', { type: 'array', string: true, describe: 'skip checks whose id matches a glob' })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD violations (warnings) fail the run' })
    .option('json', { type: 'boolean', default: false, describe: 'print NDJSON events instead of the console report' })
    .option('out', { type: 'string', describe: 'write report.json (and recording.json) into this folder' })
    .option('timeout', { type: 'string', default: '10s', describe: 'per-request timeout: silence is judged only after it (500ms, 10s, 2m; a plain number is ms)' })
    .option('tool-timeout', { type: 'string', describe: 'timeout for one generated tool call (default: --timeout)' })
    .option('deadline', { type: 'string', default: '5m', describe: 'the whole run ends by then' })
    .option('allow-destructive', { type: 'boolean', default: false, describe: 'also call tools not marked read-only / non-destructive' })
    .option('allow-open-world', { type: 'boolean', default: false, describe: 'also call tools marked openWorldHint (they may reach outside this machine)' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the stdio target: K=V (the target gets only PATH, a temporary HOME and what you pass)' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the stdio target by name" })
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
  timeout: string;
  'tool-timeout'?: string;
  deadline: string;
  'allow-destructive': boolean;
  'allow-open-world': boolean;
  env?: string[];
  'pass-env'?: string[];
  seed?: number;
  runs: number;
  concurrency: number;
  color?: boolean;
  '--'?: (string | number)[];
  _: (string | number)[];
}

function targetOf(args: ServerArgs): ServerTarget {
  const command = (args['--'] ?? []).map(String);
  if (args.stdio && args.url) throw new UsageError('give either --stdio -- <command> or --url, not both');
  if (args.stdio) {
    if (command.length === 0) throw new UsageError('--stdio needs the server command after --, e.g. mcpspec server --stdio -- node server.js');
    // The target runs in a temporary working directory: paths given relative to where mcpspec runs
    // (the usual `node server.js`) are made absolute first.
    return { kind: 'stdio', command: absoluteIfFile(command[0]), args: command.slice(1).map(absoluteIfFile) };
  }
  if (command.length > 0) throw new UsageError('a command after -- needs --stdio');
  if (args.url) {
    let u: URL;
    try {
      u = new URL(args.url);
    } catch {
      throw new UsageError(`--url is not a URL: ${args.url}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--url must be http or https, got ${u.protocol}`);
    return { kind: 'http', url: args.url, headers: parseHeaders(args.header ?? []) };
  }
  throw new UsageError('say which server to test: --stdio -- <command> or --url <endpoint>');
}

function absoluteIfFile(arg: string): string {
  if (arg.startsWith('-') || isAbsolute(arg) || !/[/.]/.test(arg)) return arg;
  return existsSync(arg) ? resolve(arg) : arg;
}

function parseHeaders(list: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

function parseEnv(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env must look like NAME=value, got "${kv}"`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

function duration(text: string, name: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--${name} must be a duration like 500ms, 10s or 2m, got "${text}"`);
  return ms;
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer, got ${n}`);
  return n;
}

/** Fail before the run, not after it: the output folder must be creatable and writable. */
function checkOutDir(out: string): void {
  let dir = resolve(out);
  while (!existsSync(dir)) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write the report to ${out}: ${dir} is not writable`);
  }
}

/** Run the server suite; resolves to the exit code. */
export async function runServerCommand(args: ServerArgs): Promise<number> {
  if (!(VERSION_CHOICES as readonly string[]).includes(args['spec-version'])) {
    throw new UsageError(`unknown --spec-version ${args['spec-version']}; choose one of ${VERSION_CHOICES.join(', ')}`);
  }
  const target = targetOf(args);
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const setEnv = parseEnv(args.env ?? []);
  const passEnv = args['pass-env'] ?? [];
  if (args.out) checkOutDir(args.out);
  const timeoutMs = duration(args.timeout, 'timeout');
  const options: ReportOptions = {
    specVersion: args['spec-version'],
    strict: args.strict,
    only: args.only,
    skip: args.skip,
    allowDestructive: args['allow-destructive'],
    allowOpenWorld: args['allow-open-world'],
    timeoutMs,
    deadlineMs: duration(args.deadline, 'deadline'),
    seed,
    runs: positiveInt(args.runs, 'runs'),
  };
  if (args['tool-timeout'] !== undefined) options.toolTimeoutMs = duration(args['tool-timeout'], 'tool-timeout');
  const envNames = [...Object.keys(setEnv), ...passEnv];
  if (envNames.length) options.env = envNames;

  // Secrets never reach the output: mcpspec's own environment, what the target was given, auth headers.
  const redactor = new Redactor([
    ...secretValues(process.env),
    ...Object.values(setEnv),
    ...(target.kind === 'http' ? Object.values(target.headers ?? {}) : []),
  ]);
  const print = (e: unknown) => process.stdout.write(`${redactor.text(JSON.stringify(e))}\n`);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let run;
  try {
    run = await runServerSuite(target, {
      ...options,
      specVersion: args['spec-version'] as VersionChoice,
      concurrency: positiveInt(args.concurrency, 'concurrency'),
      env: { set: setEnv, pass: passEnv },
      signal: interrupt.signal,
      onEvent: args.json ? (e: RunEvent) => print(e) : undefined,
    });
  } catch (e) {
    if (e instanceof TargetStartError || e instanceof HandshakeError) {
      const tail = e instanceof HandshakeError && e.stderrTail ? ` (stderr: ${e.stderrTail.trim().split('\n').slice(-1)[0]?.slice(0, 200)})` : '';
      throw new UsageError(redactor.text(`cannot test the target: ${e.message}${tail}`));
    }
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const report = redactor.json(buildReport(run, options, TOOL_VERSION));
  if (args.json) print({ type: 'run-end', summary: report.summary, digest: report.digest, seed });
  else {
    console.log(renderConsole(report, { color: args.color ?? process.stdout.isTTY === true }));
    console.log(`seed: ${seed} (repeat with --seed ${seed})`);
  }
  if (args.out) {
    try {
      mkdirSync(args.out, { recursive: true });
      writeFileSync(join(args.out, 'report.json'), JSON.stringify(report, null, 2));
      writeFileSync(join(args.out, 'recording.json'), redactor.text(JSON.stringify(run.recording.toJSON())));
    } catch (e) {
      throw new UsageError(`cannot write the report to ${args.out}: ${(e as Error).message}`);
    }
    if (!args.json) console.log(`report: ${join(args.out, 'report.json')}`);
  }
  if (report.summary.pass + report.summary.fail + report.summary.warn === 0 && report.summary.error === 0) {
    throw new UsageError(`nothing was judged (${report.summary.skip} skipped, ${report.summary.untestable} untestable${args.only ? `; --only ${args.only.join(' ')} matched ${report.summary.total} checks` : ''}): a run that judges nothing is never conformant`);
  }
  return exitCodeOf(report);
}
