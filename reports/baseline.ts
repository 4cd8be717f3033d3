// Baselines: the failures a project already knows about, as a JSON list of { id, reason } (or read
// from the official suite's expected-failures file: reports/expected-failures.ts). A run with a
// baseline fails only on a failure the baseline does not name, and lists the entries that now pass
// (stale) so the baseline shrinks. Pure: parses and compares data.

import type { CheckResult, Finding } from '../results/run.js';
import type { Report } from './report.js';

export interface BaselineEntry {
  /** The check id, or for an entry of the official suite's file the entry as written. */
  id: string;
  reason: string;
  /** The mcpspec checks the entry expects may fail, when not just `id` (an official entry maps to several). */
  checks?: readonly string[];
}

function checksOf(e: BaselineEntry): readonly string[] {
  return e.checks ?? [e.id];
}

/** A baseline file that cannot be used; one line for the user. */
export class BaselineError extends Error {
  override name = 'BaselineError';
}

/** Parse a baseline file's text; throws BaselineError naming what is wrong. */
export function parseBaseline(text: string, source = 'the baseline'): BaselineEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new BaselineError(`${source} is not JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(data)) throw new BaselineError(`${source} must be a JSON list of { "id": ..., "reason": ... }`);
  const seen = new Set<string>();
  return data.map((e, i) => {
    if (typeof e !== 'object' || e === null || typeof (e as { id?: unknown }).id !== 'string') {
      throw new BaselineError(`${source}: entry ${i} must be an object with a string "id"`);
    }
    const { id, reason } = e as { id: string; reason?: unknown };
    if (reason !== undefined && typeof reason !== 'string') throw new BaselineError(`${source}: entry ${i} (${id}): "reason" must be a string`);
    if (seen.has(id)) throw new BaselineError(`${source}: ${id} is listed twice`);
    seen.add(id);
    return { id, reason: reason ?? '' };
  });
}

/** A check that breaks the run: fail, or warn under --strict. */
export function isFailure(c: Pick<CheckResult, 'status'>, strict: boolean): boolean {
  return c.status === 'fail' || (strict && c.status === 'warn');
}

/** The baseline of a report: its failures (and warnings under strict), reasons from their messages. */
export function baselineOf(report: Report): BaselineEntry[] {
  return report.checks
    .filter((c) => isFailure(c, report.options.strict))
    .map((c) => ({ id: c.id, reason: oneLine(`${c.status}: ${c.message}`) }));
}

function oneLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

export interface BaselineComparison {
  /** Failures the baseline names. */
  expected: CheckResult[];
  /** Failures it does not name: these fail the run. */
  unexpected: CheckResult[];
  /** Crash or hang findings in a scenario with no expected failure: these fail the run too. */
  unexpectedTargetFailures: Finding[];
  /**
   * Entries none of whose checks failed, at least one passed and none was left untestable: remove
   * them. A check skipped or not reported (not selected, not for this version) does not keep an
   * entry of several checks alive.
   */
  stale: BaselineEntry[];
  /** Entries that neither failed nor are stale: no check of theirs was judged, or not all of them could be. */
  notRun: BaselineEntry[];
}

export function compareBaseline(report: Report, baseline: BaselineEntry[]): BaselineComparison {
  const strict = report.options.strict;
  const names = new Set(baseline.flatMap(checksOf));
  const failures = report.checks.filter((c) => isFailure(c, strict));
  const expected = failures.filter((c) => names.has(c.id));
  const expectedScenarios = new Set(expected.map((c) => c.scenario));
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  const stale: BaselineEntry[] = [];
  const notRun: BaselineEntry[] = [];
  for (const e of baseline) {
    const judged = checksOf(e).flatMap((id) => byId.get(id) ?? []);
    if (judged.some((c) => isFailure(c, strict))) continue;
    const passed = judged.some((c) => c.status === 'pass' || c.status === 'warn');
    const undecided = judged.some((c) => c.status === 'untestable' || c.status === 'error');
    (passed && !undecided ? stale : notRun).push(e);
  }
  return {
    expected,
    unexpected: failures.filter((c) => !names.has(c.id)),
    unexpectedTargetFailures: report.findings.filter((f) => (f.kind === 'crash' || f.kind === 'hang') && !(f.scenario && expectedScenarios.has(f.scenario))),
    stale,
    notRun,
  };
}

/**
 * Exit code of a run judged against a baseline: 0 when only expected failures remain, 1 otherwise;
 * with strictStale (--strict-baseline) a stale entry fails the run too, as in the official suite.
 */
export function baselineExitCode(c: BaselineComparison, strictStale = false): 0 | 1 {
  return c.unexpected.length === 0 && c.unexpectedTargetFailures.length === 0 && !(strictStale && c.stale.length > 0) ? 0 : 1;
}
