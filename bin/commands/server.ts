import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { TOOL_VERSION } from '../../protocol/tool-version.js';
import { VERSION_CHOICES, type VersionChoice } from '../../protocol/versions.js';
import type { RunEvent } from '../../results/run.js';
import { renderConsole } from '../../reports/console.js';
import { buildReport, exitCodeOf, type Report, type ReportOptions } from '../../reports/report.js';
import { HandshakeError } from '../../runner/base-session.js';
import { globToRegExp, matchesGlobs } from '../../runner/globs.js';
import { Redactor, secretValues } from '../../runner/redact.js';
import { ServerDriver, type ServerTarget } from '../../runner/server-driver.js';
import { ServerStartError, urlForValidation } from '../../runner/started-server.js';
import { TargetStartError } from '../../runner/transport.js';
import { generationOf, safetyOf, timingOf } from '../../suites/kit/scenario.js';
import { baselineEvent, exitCodeWithBaseline, judgeBaseline, loadBaselines, printBaseline } from '../baseline-judge.js';
import { checkIds } from '../check-ids.js';
import { Progress } from '../progress.js';
import { absoluteIfFile, checkOutDir, duration, httpUrl, makeDirs, noHeadersForStdio, parseEnv, parseHeaders, requireGlobs } from '../target-args.js';
import { outputFormats, writeReportFolder } from '../report-folder.js';
import { showServerOutput, writeServerLog } from '../server-log.js';
import { checkStartFlags, startCommandOf } from '../start-args.js';
import { UsageError } from '../usage-error.js';

export { checkOutDir, makeDirs, parseEnv };
import type { ServerArgs } from './server-options.js';

export { serverOptions, type ServerArgs } from './server-options.js';

export function targetOf(args: Pick<ServerArgs, 'stdio' | 'url' | 'start' | 'header' | '--'>): ServerTarget {
  const command = (args['--'] ?? []).map(String);
  if (args.stdio && args.url) throw new UsageError('give either --stdio -- <command> or --url, not both');
  checkStartFlags(args, command, 'mcpspec server --url <endpoint> --start -- <command>');
  if (args.stdio) {
    noHeadersForStdio(args.header);
    if (command.length === 0) throw new UsageError('--stdio needs the server command after --, e.g. mcpspec server --stdio -- node server.js');
    // The target runs in a temporary working directory: paths given relative to where mcpspec runs
    // (the usual `node server.js`) are made absolute first.
    return { kind: 'stdio', command: absoluteIfFile(command[0]), args: command.slice(1).map(absoluteIfFile) };
  }
  if (command.length > 0 && !args.start) throw new UsageError('a command after -- needs --stdio (or --start with --url)');
  if (args.url) {
    httpUrl(urlForValidation(args.url));
    // --start: started once for the run, in a temporary folder (paths made absolute, as for --stdio).
    const start = startCommandOf(args);
    return { kind: 'http', url: args.url, headers: parseHeaders(args.header ?? []), ...(start ? { start } : {}) };
  }
  throw new UsageError('say which server to test: --stdio -- <command> or --url <endpoint>');
}

export function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer, got ${n}`);
  return n;
}

/** `--shard i/n`: 1 <= i <= n. */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must look like i/n with 1 <= i <= n (e.g. 1/4), got "${text}"`);
  return { index, count };
}

/** A seed every shard of the same target derives alike (when --shard is given without --seed). */
function stableSeed(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) & 0x7fffffff;
}

/** Catch an --only that selects nothing before the target is started (it would judge nothing). */
export function checkSelection(ids: readonly string[], only: string[] | undefined, skip: string[] | undefined): void {
  requireGlobs(only, skip);
  for (const g of only ?? []) {
    const re = globToRegExp(g);
    if (!ids.some((id) => re.test(id))) throw new UsageError(`--only ${g} matches no check (mcpspec list shows the ids)`);
  }
  if (!ids.some((id) => matchesGlobs(id, only, skip))) throw new UsageError(`--only ${(only ?? []).join(' ')} with --skip ${(skip ?? []).join(' ')} leaves no check to run`);
}

/** One run, fully described: what verify repeats from a report's options. */
export interface RunRequest {
  target: ServerTarget;
  options: ReportOptions;
  setEnv: Record<string, string>;
  passEnv: string[];
  concurrency: number;
  shard?: { index: number; count: number };
  /** Stream NDJSON events on stdout (and no progress line). */
  json: boolean;
  /** --start: how long the server may take to accept connections (default: the driver's). */
  startTimeoutMs?: number;
  /** --out: where a started server's output goes (server.log) when it fails to start. */
  out?: string;
}

export interface RunOutcome {
  report: Report;
  /** The redacted recording, as JSON text. */
  recording: string;
  redactor: Redactor;
  /** The signal that ended the run early, if one did. */
  interrupted?: NodeJS.Signals;
  /** --start: what the started server printed (redacted), and whether it exited on its own during the run. */
  server?: { output: string; died: boolean };
}

/** Exit code of a run ended by a signal (the shell convention: 128 + signal number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** Run the suite once: signals end it promptly (targets reaped, the report kept); start failures are usage errors. */
export async function executeRun(req: RunRequest): Promise<RunOutcome> {
  const { target, options } = req;
  // Secrets never reach the output: mcpspec's own environment, what the target was given, auth headers.
  const redactor = new Redactor([
    ...secretValues(process.env),
    ...Object.values(req.setEnv),
    ...(target.kind === 'http' ? Object.values(target.headers ?? {}) : []),
  ]);
  const print = (e: unknown) => process.stdout.write(`${redactor.text(JSON.stringify(e))}\n`);
  const interrupt = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(signalExitCode(signal)); // a second signal: stop now (the exit hook reaps the targets)
    interrupted = signal;
    interrupt.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = req.json ? undefined : new Progress(process.stderr).start();
  // The report's options, split by who uses them: the driver (and its scenarios), then the engine.
  const driver = new ServerDriver(target, {
    specVersion: options.specVersion as VersionChoice,
    env: { set: req.setEnv, pass: req.passEnv },
    timing: timingOf(options),
    safety: safetyOf(options),
    generation: generationOf(options),
    startTimeoutMs: req.startTimeoutMs,
  });
  // Reach the target first: it answers the era probe while the suite's modules (catalogue,
  // generators, validators) load; the engine's start joins this one and reports how it failed.
  driver.start(interrupt.signal).catch(() => undefined);
  // The suite's modules load once the first request is out (their compiling would hold it back), or
  // after 200 ms whatever the target is doing (a slow start: the loading overlaps it instead).
  await Promise.race([driver.firstSent(), new Promise((r) => setTimeout(r, 200).unref())]);
  let run;
  try {
    const { runSuite } = await import('../../runner/engine.js').catch(async (e: unknown) => {
      await driver.close(); // the target may be running already: it is not left behind
      throw e;
    });
    run = await runSuite(driver, {
      selection: { only: options.only, skip: options.skip, shard: req.shard },
      schedule: { deadlineMs: options.deadlineMs, concurrency: req.concurrency, signal: interrupt.signal },
      reporting: { onEvent: req.json ? (e: RunEvent) => print(e) : undefined, onProgress: progress ? (p) => progress.update(p) : undefined },
      seed: options.seed,
    });
  } catch (e) {
    if (e instanceof TargetStartError || e instanceof HandshakeError) {
      if (interrupted) throw new UsageError(`interrupted (${interrupted}) before the target answered`, signalExitCode(interrupted));
      const tail = e instanceof HandshakeError && e.stderrTail ? ` (stderr: ${e.stderrTail.trim().split('\n').slice(-1)[0]?.slice(0, 200)})` : '';
      // A started server that failed: what it printed, above the one line that says how it failed.
      const printed = driver.serverOutput();
      if (printed !== undefined) {
        const output = redactor.text(printed);
        showServerOutput(output, req.out ? writeServerLog(req.out, output) : undefined);
      }
      const longer = e instanceof ServerStartError && e.code === 'ETIMEDOUT' ? ' (--start-timeout gives it longer)' : '';
      throw new UsageError(redactor.text(`cannot test the target: ${e.message}${tail}${longer}`));
    }
    throw e;
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  // Loaded with the engine already: the catalogue tells the traceability view why a requirement has no check here.
  const { CHECKS } = await import('../../suites/catalogue.js');
  const report = redactor.json(buildReport(run, options, TOOL_VERSION, CHECKS));
  if (req.shard) report.shard = req.shard;
  const printed = driver.serverOutput();
  const server = printed !== undefined ? { output: redactor.text(printed), died: driver.serverDied() } : undefined;
  return { report, recording: redactor.text(JSON.stringify(run.recording.toJSON())), redactor, interrupted, ...(server ? { server } : {}) };
}

/** Run the server suite; resolves to the exit code. */
export async function runServerCommand(args: ServerArgs): Promise<number> {
  if (!(VERSION_CHOICES as readonly string[]).includes(args['spec-version'])) {
    throw new UsageError(`unknown --spec-version ${args['spec-version']}; choose one of ${VERSION_CHOICES.join(', ')}`);
  }
  const target = targetOf(args);
  const shard = args.shard !== undefined ? parseShard(String(args.shard)) : undefined;
  if (args.seed !== undefined && !Number.isInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const seed = args.seed ?? (shard ? stableSeed(JSON.stringify([target.kind === 'stdio' ? [target.command, ...target.args] : target.url, args['spec-version']])) : Math.floor(Math.random() * 2 ** 31));
  const setEnv = parseEnv(args.env ?? []);
  const passEnv = args['pass-env'] ?? [];
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
  const concurrency = positiveInt(args.concurrency, 'concurrency');
  if (args['start-timeout'] !== undefined && !args.start) throw new UsageError('--start-timeout goes with --url <endpoint> --start -- <command>');
  const startTimeoutMs = args['start-timeout'] !== undefined ? duration(args['start-timeout'], 'start-timeout') : undefined;
  checkSelection(await checkIds(), args.only, args.skip);
  const baseline = await loadBaselines(args, 'server');
  if (args.out) checkOutDir(args.out);
  const formats = outputFormats(args.format, args.out);

  const { report, recording, interrupted, server } = await executeRun({ target, options, setEnv, passEnv, concurrency, shard, json: args.json, startTimeoutMs, out: args.out });
  const judged = baseline && judgeBaseline(report, baseline);
  if (args.json) {
    const b = judged && baselineEvent(judged);
    process.stdout.write(`${JSON.stringify({ type: 'run-end', summary: report.summary, digest: report.digest, seed, ...(shard ? { shard } : {}), ...(b ? { baseline: b } : {}), ...(interrupted ? { interrupted } : {}) })}\n`);
  } else {
    console.log(renderConsole(report, { color: args.color ?? process.stdout.isTTY === true }));
    console.log(`seed: ${seed} (repeat with --seed ${seed})${shard ? `; shard ${shard.index}/${shard.count}` : ''}`);
    if (judged) printBaseline(judged);
  }
  if (args.out) {
    await writeReportFolder(args.out, report, recording, formats);
    if (!args.json) console.log(`report: ${join(args.out, 'report.json')}`);
  }
  if (server) {
    // Always kept with the report (a stale log of an earlier run would mislead); shown when it explains a failure.
    const log = args.out ? writeServerLog(args.out, server.output) : undefined;
    if (log && !args.json) console.log(`server log: ${log}`);
    const judgedNothing = report.summary.pass + report.summary.fail + report.summary.warn === 0;
    if (!interrupted && (server.died || judgedNothing || exitCodeOf(report) !== 0)) showServerOutput(server.output, log);
  }
  if (interrupted) {
    console.error(`mcpspec: interrupted (${interrupted}): the report covers what ran before it`);
    return signalExitCode(interrupted);
  }
  if (report.summary.pass + report.summary.fail + report.summary.warn === 0 && report.summary.error === 0) {
    throw new UsageError(`nothing was judged (${report.summary.skip} skipped, ${report.summary.untestable} untestable${args.only ? `; --only ${args.only.join(' ')} matched ${report.summary.total} checks` : ''}): a run that judges nothing is never conformant`);
  }
  const code = exitCodeOf(report);
  // The authorization checks passed, and nothing else could run: not a verdict on the server.
  if (code === 2 && report.limited && report.summary.conformant) throw new UsageError(report.limited);
  if (judged) return exitCodeWithBaseline(code, judged);
  return code;
}
