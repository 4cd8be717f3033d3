import type { CheckResult, Finding, RunResult, ScenarioResult } from '../runner/engine.js';
import type { Status } from '../suites/check.js';

export const REPORT_VERSION = 1;

export interface Summary {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  untestable: number;
  error: number;
  total: number;
  /** Crashes and hangs of the target seen during the run. */
  targetFailures: number;
  /** mcpspec's own failures (never blamed on the target). */
  harnessErrors: number;
  conformant: boolean;
}

/** report.json: the versioned, documented structure every reporter renders (docs/report-format.md). */
export interface Report {
  reportVersion: typeof REPORT_VERSION;
  tool: { name: 'mcpspec'; version: string };
  startedAt: string;
  durationMs: number;
  target: { transport: 'stdio'; command: string; args: string[] } | { transport: 'http'; url: string };
  era: RunResult['era'];
  server: RunResult['server'];
  options: { strict: boolean; only?: string[]; skip?: string[]; allowDestructive: boolean; timeoutMs: number; toolTimeoutMs?: number; seed: number; runs: number };
  summary: Summary;
  scenarios: ScenarioResult[];
  checks: CheckResult[];
  findings: Finding[];
}

export function summarize(checks: CheckResult[], findings: Finding[], strict: boolean): Summary {
  const count = (s: Status) => checks.filter((c) => c.status === s).length;
  const s = {
    pass: count('pass'), fail: count('fail'), warn: count('warn'), skip: count('skip'), untestable: count('untestable'), error: count('error'),
    total: checks.length,
    targetFailures: findings.filter((f) => f.kind === 'crash' || f.kind === 'hang').length,
    harnessErrors: findings.filter((f) => f.kind === 'harness').length,
  };
  return { ...s, conformant: s.fail === 0 && s.targetFailures === 0 && (!strict || s.warn === 0) };
}

export function buildReport(run: RunResult, options: Report['options'], toolVersion: string): Report {
  const t = run.target;
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: 'mcpspec', version: toolVersion },
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    target: t.kind === 'stdio' ? { transport: 'stdio', command: t.command, args: t.args } : { transport: 'http', url: t.url },
    era: run.era,
    server: run.server,
    options,
    summary: summarize(run.checks, run.findings, options.strict),
    scenarios: run.scenarios,
    checks: run.checks,
    findings: run.findings,
  };
}

/** 0 conformant, 1 nonconformant, 2 when mcpspec itself failed (its verdicts cannot be trusted). */
export function exitCodeOf(report: Report): 0 | 1 | 2 {
  if (report.summary.error > 0 || report.summary.harnessErrors > 0) return 2;
  return report.summary.conformant ? 0 : 1;
}
