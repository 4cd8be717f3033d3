// `mcpspec client`: judge an MCP client. mcpspec plays a scripted server (over HTTP, or over stdio
// through the relay program `{server}` starts) and runs the client once per scenario. A harness
// written for the official conformance suite runs as that suite runs it (--official-harness, --command).

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VERSION_CHOICES, type SpecVersion } from '../../protocol/versions.js';
import { TOOL_VERSION } from '../../protocol/tool-version.js';
import { renderConsole } from '../../reports/console.js';
import { buildReport, exitCodeOf, type Report, type ReportOptions } from '../../reports/report.js';
import type { RunEvent } from '../../results/run.js';
import { ClientDriver, hasPlaceholder, placeholdersOf, URL_PLACEHOLDER, type ClientTarget } from '../../runner/client-driver.js';
import { runSuite } from '../../runner/engine.js';
import { globToRegExp, matchesGlobs } from '../../runner/globs.js';
import { Redactor, secretValues } from '../../runner/redact.js';
import { TargetStartError } from '../../runner/transport.js';
import { CHECKS, CLIENT_ORACLE_TRAFFIC } from '../../suites/catalogue.js';
import { generationOf, safetyOf, timingOf } from '../../suites/kit/scenario.js';
import { baselineEvent, exitCodeWithBaseline, judgeBaseline, loadBaselines, printBaseline } from '../baseline-judge.js';
import { Progress } from '../progress.js';
import { absoluteIfFile, checkOutDir, duration, parseEnv, requireGlobs } from '../target-args.js';
import { outputFormats, writeReportFolder } from '../report-folder.js';
import { UsageError } from '../usage-error.js';
import type { ClientArgs } from './client-options.js';
import { positiveInt, signalExitCode } from './server.js';

export { clientOptions, type ClientArgs } from './client-options.js';

export function clientTargetOf(args: Pick<ClientArgs, 'http' | 'stdio' | '--'> & Partial<Pick<ClientArgs, 'official-harness' | 'command'>>): ClientTarget {
  const words = (args['--'] ?? []).map(String);
  if (args.command !== undefined) {
    if (args.stdio) throw new UsageError('--command gives a harness written for the official conformance suite, which speaks HTTP: leave out --stdio');
    if (words.length) throw new UsageError('give the harness either as --command "<command>" or after --, not both');
    if (!args.command.trim()) throw new UsageError('--command needs the harness command, e.g. --command "node harness.js"');
    // As the official suite runs it: the string through the shell, the server URL appended.
    const line = args.command.includes(URL_PLACEHOLDER) ? args.command : `${args.command} ${URL_PLACEHOLDER}`;
    return { command: '/bin/sh', args: ['-c', line], transport: 'http', officialHarness: true };
  }
  const harness = args['official-harness'] === true;
  if (args.http && args.stdio) throw new UsageError('give either --http or --stdio, not both');
  if (harness && args.stdio) throw new UsageError('--official-harness is for harnesses written for the official conformance suite, which speak HTTP (the server URL as their last argument): use --http');
  if (!args.http && !args.stdio && !harness) throw new UsageError('say how the client connects: mcpspec client --http -- <command with {url}> or --stdio -- <command with {server}>');
  const transport = args.stdio ? 'stdio' : 'http';
  if (words.length === 0) throw new UsageError(`--${harness ? 'official-harness' : transport} needs the client command after --, e.g. mcpspec client --${transport} -- node client.js ${harness ? '' : transport === 'http' ? '{url}' : '{server}'}`.trimEnd());
  const target: ClientTarget = { command: absoluteIfFile(words[0]), args: words.slice(1).map(absoluteIfFile), transport, ...(harness ? { officialHarness: true } : {}) };
  if (!harness && !hasPlaceholder(target)) {
    const official = transport === 'http' ? '; a harness written for the official conformance suite takes it as its last argument: add --official-harness' : '';
    throw new UsageError(`the client command contains no ${placeholdersOf(transport).join(' or ')}: mcpspec puts ${transport === 'http' ? 'its endpoint URL' : 'the command that starts its scripted server'} there (e.g. mcpspec client --${transport} -- node client.js ${placeholdersOf(transport)[0]})${official}`);
  }
  return target;
}

const CLIENT_CHECKS = CHECKS.filter((c) => c.role === 'client');

function checkClientSelection(only: string[] | undefined, skip: string[] | undefined): void {
  requireGlobs(only, skip);
  for (const g of only ?? []) {
    const re = globToRegExp(g);
    if (!CLIENT_CHECKS.some((c) => re.test(c.id))) throw new UsageError(`--only ${g} matches no client check (mcpspec list shows the ids; client checks start with client.)`);
  }
  if (!CLIENT_CHECKS.some((c) => matchesGlobs(c.id, only, skip))) throw new UsageError('--only/--skip leave no client check to run');
}

/** What one run of the client suite needs: the report's options and how the client is started. */
export interface ClientRunRequest {
  target: ClientTarget;
  options: ReportOptions;
  setEnv: Record<string, string>;
  passEnv: string[];
  cwd?: string;
  concurrency: number;
  /** NDJSON events on stdout instead of a progress line. */
  json: boolean;
}

/** Run the client suite once (signals end it promptly, the report kept); start failures are usage errors. */
export async function executeClientRun(req: ClientRunRequest): Promise<{ report: Report; recording: string; interrupted?: NodeJS.Signals }> {
  const { target, options, setEnv, passEnv, concurrency } = req;
  // A harness runs where mcpspec runs, as the official suite runs it (its command may name files relative to it).
  const cwd = req.cwd ?? (target.officialHarness ? process.cwd() : undefined);
  const seed = options.seed;
  const redactor = new Redactor([...secretValues(process.env), ...Object.values(setEnv)]);
  const print = (e: unknown) => process.stdout.write(`${redactor.text(JSON.stringify(e))}\n`);
  const interrupt = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(signalExitCode(signal));
    interrupted = signal;
    interrupt.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = req.json ? undefined : new Progress(process.stderr).start();
  // The report's options, split by who uses them: the driver (and its scenarios), then the engine.
  const driver = new ClientDriver(target, {
    specVersion: options.specVersion as SpecVersion | 'auto',
    env: { set: setEnv, pass: passEnv },
    cwd,
    timing: timingOf(options),
    safety: safetyOf(options),
    generation: generationOf(options),
  });
  let run;
  try {
    run = await runSuite(driver, {
      selection: { only: options.only, skip: options.skip, traffic: CLIENT_ORACLE_TRAFFIC },
      schedule: { deadlineMs: options.deadlineMs, concurrency, signal: interrupt.signal },
      reporting: { onEvent: req.json ? (e: RunEvent) => print(e) : undefined, onProgress: progress ? (p) => progress.update(p) : undefined },
      seed,
    });
  } catch (e) {
    if (e instanceof TargetStartError) {
      if (interrupted) throw new UsageError(`interrupted (${interrupted}) before the client was judged`, signalExitCode(interrupted));
      throw new UsageError(redactor.text(`cannot test the client: ${e.message}`));
    }
    throw e;
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const report = redactor.json(buildReport(run, options, TOOL_VERSION, CHECKS));
  return { report, recording: redactor.text(JSON.stringify(run.recording.toJSON())), interrupted };
}

/** Run the client suite; resolves to the exit code. */
export async function runClientCommand(args: ClientArgs): Promise<number> {
  if (!(VERSION_CHOICES as readonly string[]).includes(args['spec-version'])) throw new UsageError(`unknown --spec-version ${args['spec-version']}; choose one of ${VERSION_CHOICES.join(', ')}`);
  const target = clientTargetOf(args);
  if (args.seed !== undefined && !Number.isInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  const setEnv = parseEnv(args.env ?? []);
  const passEnv = args['pass-env'] ?? [];
  const options: ReportOptions = {
    specVersion: args['spec-version'],
    strict: args.strict,
    only: args.only,
    skip: args.skip,
    allowDestructive: false,
    allowOpenWorld: false,
    timeoutMs: duration(args.timeout, 'timeout'),
    deadlineMs: duration(args.deadline, 'deadline'),
    seed,
    runs: 1,
  };
  const envNames = [...Object.keys(setEnv), ...passEnv];
  if (envNames.length) options.env = envNames;
  const concurrency = positiveInt(args.concurrency, 'concurrency');
  checkClientSelection(args.only, args.skip);
  let cwd: string | undefined;
  if (args.cwd !== undefined) {
    cwd = resolve(args.cwd);
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${args.cwd} is not a folder`);
  }
  const baseline = await loadBaselines(args, 'client');
  if (args.out) checkOutDir(args.out);
  const formats = outputFormats(args.format, args.out);

  const { report, recording, interrupted } = await executeClientRun({ target, options, setEnv, passEnv, cwd, concurrency, json: args.json });
  const judged = baseline && judgeBaseline(report, baseline);
  if (args.json) {
    const b = judged && baselineEvent(judged);
    process.stdout.write(`${JSON.stringify({ type: 'run-end', summary: report.summary, digest: report.digest, seed, ...(b ? { baseline: b } : {}), ...(interrupted ? { interrupted } : {}) })}\n`);
  } else {
    console.log(renderConsole(report, { color: args.color ?? process.stdout.isTTY === true }));
    console.log(`seed: ${seed} (repeat with --seed ${seed})`);
    if (judged) printBaseline(judged);
  }
  if (args.out) {
    await writeReportFolder(args.out, report, recording, formats);
    if (!args.json) console.log(`report: ${join(args.out, 'report.json')}`);
  }
  if (interrupted) {
    console.error(`mcpspec: interrupted (${interrupted}): the report covers what ran before it`);
    return signalExitCode(interrupted);
  }
  if (report.summary.pass + report.summary.fail + report.summary.warn === 0 && report.summary.error === 0) {
    throw new UsageError(`nothing was judged (${report.summary.skip} skipped, ${report.summary.untestable} untestable): the client gave no check a chance; a run that judges nothing is never conformant`);
  }
  const code = exitCodeOf(report);
  return judged ? exitCodeWithBaseline(code, judged) : code;
}
