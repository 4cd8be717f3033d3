// Baselines: the failures a project already knows about, as a JSON list of { id, reason }. A run
// with a baseline fails only on a failure the baseline does not name, and lists the entries that
// now pass (stale) so the baseline shrinks. Pure: parses and compares data.

import type { CheckResult, Finding } from '../results/run.js';
import type { Report } from './report.js';

export interface BaselineEntry {
  id: string;
  reason: string;
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
  /** Entries whose check now passes (or was judged and is no longer a failure): remove them. */
  stale: BaselineEntry[];
  /** Entries naming a check this run did not report at all (not selected, not applicable, or unknown). */
  notRun: BaselineEntry[];
}

export function compareBaseline(report: Report, baseline: BaselineEntry[]): BaselineComparison {
  const strict = report.options.strict;
  const names = new Set(baseline.map((e) => e.id));
  const failures = report.checks.filter((c) => isFailure(c, strict));
  const expected = failures.filter((c) => names.has(c.id));
  const expectedScenarios = new Set(expected.map((c) => c.scenario));
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  return {
    expected,
    unexpected: failures.filter((c) => !names.has(c.id)),
    unexpectedTargetFailures: report.findings.filter((f) => (f.kind === 'crash' || f.kind === 'hang') && !(f.scenario && expectedScenarios.has(f.scenario))),
    stale: baseline.filter((e) => {
      const c = byId.get(e.id);
      return c !== undefined && (c.status === 'pass' || c.status === 'warn') && !isFailure(c, strict);
    }),
    notRun: baseline.filter((e) => !byId.has(e.id)),
  };
}

/** Exit code of a run judged against a baseline: 0 when only expected failures remain, 1 otherwise. */
export function baselineExitCode(c: BaselineComparison): 0 | 1 {
  return c.unexpected.length === 0 && c.unexpectedTargetFailures.length === 0 ? 0 : 1;
}
