// A run judged against its baselines (--baseline, --expected-failures), the same for server and
// client: the files are read before the run (a bad one is a usage error), then the report is
// compared with them, the outcome printed (or put in the --json run-end event) and the exit code set.

import { readFileSync } from 'node:fs';
import { BaselineError, baselineExitCode, compareBaseline, parseBaseline, type BaselineComparison, type BaselineEntry } from '../reports/baseline.js';
import type { Translation } from '../reports/expected-failures.js';
import type { OfficialRole } from '../reports/official-suite-map.js';
import type { Report } from '../reports/report.js';
import type { BaselineArgs } from './baseline-options.js';
import { UsageError } from './usage-error.js';

export interface LoadedBaseline {
  entries: BaselineEntry[];
  /** The files, as named on the command line. */
  files: string[];
  /** What the official expected-failures file became. */
  official?: Translation & { file: string; role: OfficialRole; suiteVersion: string };
  /** --strict-baseline: stale entries fail the run. */
  strictStale: boolean;
}

function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${option} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof BaselineError) throw new UsageError(e.message);
    throw e;
  }
}

/** The baselines a command was given (undefined when none); checked before the target is started. */
export async function loadBaselines(args: BaselineArgs, role: OfficialRole): Promise<LoadedBaseline | undefined> {
  const json = args.baseline;
  const yaml = args['expected-failures'];
  if (json === undefined && yaml === undefined) {
    if (args['strict-baseline']) throw new UsageError('--strict-baseline needs --baseline FILE or --expected-failures FILE');
    return undefined;
  }
  const loaded: LoadedBaseline = { entries: [], files: [], strictStale: args['strict-baseline'] };
  if (json !== undefined) {
    loaded.entries.push(...parsed(() => parseBaseline(readText(json, '--baseline'), `--baseline ${json}`)));
    loaded.files.push(json);
  }
  if (yaml !== undefined) {
    // The YAML parser loads only for the runs that read one.
    const { OFFICIAL_SUITE_VERSION, parseExpectedFailures, translateExpectedFailures } = await import('../reports/expected-failures.js');
    const file = parsed(() => parseExpectedFailures(readText(yaml, '--expected-failures'), `--expected-failures ${yaml}`));
    const translation = translateExpectedFailures(file, role);
    loaded.entries.push(...translation.baseline);
    loaded.files.push(yaml);
    loaded.official = { ...translation, file: yaml, role, suiteVersion: OFFICIAL_SUITE_VERSION };
  }
  return loaded;
}

export interface BaselineVerdict {
  loaded: LoadedBaseline;
  comparison: BaselineComparison;
}

export function judgeBaseline(report: Report, loaded: LoadedBaseline): BaselineVerdict {
  return { loaded, comparison: compareBaseline(report, loaded.entries) };
}

/** The `baseline` member of the --json run-end event. */
export function baselineEvent({ loaded, comparison: c }: BaselineVerdict): Record<string, unknown> {
  return {
    expected: c.expected.map((r) => r.id),
    new: c.unexpected.map((r) => r.id),
    stale: c.stale.map((e) => e.id),
    notRun: c.notRun.map((e) => e.id),
    ...(loaded.official ? { mapped: Object.fromEntries(loaded.official.mapped.map((m) => [m.entry, m.checks])), unmapped: loaded.official.unmapped } : {}),
    ...(loaded.strictStale ? { strictBaseline: true } : {}),
  };
}

const many = (e: BaselineEntry) => e.checks !== undefined && e.checks.length > 1;

export function printBaseline({ loaded, comparison: c }: BaselineVerdict): void {
  const o = loaded.official;
  if (o) {
    console.log(`expected failures ${o.file} (official suite ${o.suiteVersion}, ${o.role} entries): ${o.mapped.length} mapped to mcpspec checks, ${o.unmapped.length} to nothing`);
    for (const m of o.mapped) {
      const notes = [m.fit === 'partial' ? 'partly: mcpspec judges only part of the rule' : '', m.uncovered.length ? `no mcpspec check for ${m.uncovered.join(', ')}` : ''].filter(Boolean);
      console.log(`  ${m.entry} -> ${m.checks.join(', ')}${notes.length ? ` (${notes.join('; ')})` : ''}`);
    }
    for (const u of o.unmapped) console.log(`  maps to nothing: ${u.entry} (${u.why})`);
  }
  const failing = c.unexpected.length + c.unexpectedTargetFailures.length;
  console.log(`baseline ${loaded.files.join(' + ')}: ${c.expected.length} expected failure${c.expected.length === 1 ? '' : 's'}, ${failing} new`);
  for (const r of c.unexpected) console.log(`  NEW ${r.id}: ${r.status}: ${r.message.split('\n')[0]}`);
  for (const f of c.unexpectedTargetFailures) console.log(`  NEW ${f.kind}: ${f.message.split('\n')[0]}`);
  const fails = loaded.strictStale ? ' (--strict-baseline: this fails the run)' : '';
  for (const e of c.stale) {
    const why = many(e) ? `expected to fail but every check it maps to that was judged passes (${e.checks!.join(', ')})` : 'expected to fail but now passes';
    console.log(`  STALE ${e.id}: ${why}; remove it from the baseline${fails}`);
  }
  for (const e of c.notRun) console.log(`  NOT RUN ${e.id}: ${many(e) ? `not all of ${e.checks!.join(', ')} could be judged in this run` : 'not judged in this run'}`);
}

/** The exit code of a run with a baseline: the baseline decides unless the run itself could not be judged (2). */
export function exitCodeWithBaseline(code: number, v: BaselineVerdict): number {
  return code === 2 ? code : baselineExitCode(v.comparison, v.loaded.strictStale);
}
