// report.json: the one versioned structure every reporter renders (docs/report-format.md, schema in
// reports/report.schema.json). Built from a RunResult (result types) and, for the traceability view,
// the vendored requirement rows.

import { createHash } from 'node:crypto';
import type { CheckResult, EraInfo, Finding, PeerInfo, RunResult, ScenarioResult, TargetInfo } from '../results/run.js';
import type { Role } from '../results/check-record.js';
import type { Status } from '../results/verdict.js';
import { traceRequirements, type CatalogueCheck, type Traceability } from './traceability.js';

export const REPORT_VERSION = 2;

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

/** What was asked for: enough to repeat the run (`mcpspec verify` re-runs it). */
export interface ReportOptions {
  specVersion: string;
  strict: boolean;
  only?: string[];
  skip?: string[];
  allowDestructive: boolean;
  allowOpenWorld: boolean;
  timeoutMs: number;
  toolTimeoutMs?: number;
  deadlineMs: number;
  seed: number;
  runs: number;
  /** Names of variables set or passed to the target (never their values). */
  env?: string[];
}

export interface Report {
  reportVersion: typeof REPORT_VERSION;
  tool: { name: 'mcpspec'; version: string };
  startedAt: string;
  durationMs: number;
  /** The side under test. */
  role: Role;
  target: TargetInfo;
  era: EraInfo;
  /** What the peer under test declared. */
  peer: PeerInfo;
  options: ReportOptions;
  summary: Summary;
  /** sha256 over the sorted `id:status` pairs and the judged version: two runs with equal verdicts have equal digests. */
  digest: string;
  /** Present when the run was one shard of a sharded run. */
  shard?: { index: number; count: number };
  /** Present when only part of the suite could run (no session: authorization required), and why. */
  limited?: string;
  scenarios: ScenarioResult[];
  checks: CheckResult[];
  findings: Finding[];
  /**
   * Every requirement with the checks citing it and the result they give (docs/traceability.md).
   * Derived from `checks`, so not in the digest; absent from reports of earlier mcpspec versions.
   */
  traceability?: Traceability;
}

export function summarize(checks: CheckResult[], findings: Finding[], strict: boolean): Summary {
  const count = (s: Status) => checks.filter((c) => c.status === s).length;
  const s = {
    pass: count('pass'),
    fail: count('fail'),
    warn: count('warn'),
    skip: count('skip'),
    untestable: count('untestable'),
    error: count('error'),
    total: checks.length,
    targetFailures: findings.filter((f) => f.kind === 'crash' || f.kind === 'hang').length,
    harnessErrors: findings.filter((f) => f.kind === 'harness').length,
  };
  return { ...s, conformant: s.fail === 0 && s.targetFailures === 0 && (!strict || s.warn === 0) };
}

export function verdictDigest(checks: Pick<CheckResult, 'id' | 'status'>[], judgedBy: string): string {
  const pairs = checks.map((c) => `${c.id}:${c.status}`).sort();
  return `sha256:${createHash('sha256').update(JSON.stringify([judgedBy, pairs])).digest('hex')}`;
}

/** The traceability view of a report's verdicts; `suite` (the whole catalogue) says why a requirement has no check in it. */
export function traceReport(report: Pick<Report, 'role' | 'era' | 'target' | 'checks'>, suite?: readonly CatalogueCheck[]): Traceability {
  return traceRequirements({ role: report.role, judgedBy: report.era.judgedBy, transport: report.target.transport, checks: report.checks }, suite);
}

/** The report's own traceability section, or (a report written before it existed) one derived from its verdicts. */
export function traceabilityOf(report: Report): Traceability {
  return report.traceability ?? traceReport(report);
}

/** `suite`: the whole check catalogue, so that the traceability view can say why a requirement has no check in this run. */
export function buildReport(run: RunResult, options: ReportOptions, toolVersion: string, suite?: readonly CatalogueCheck[]): Report {
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: 'mcpspec', version: toolVersion },
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    role: run.role,
    target: run.target,
    era: run.era,
    peer: run.peer,
    options,
    summary: summarize(run.checks, run.findings, options.strict),
    digest: verdictDigest(run.checks, run.era.judgedBy),
    scenarios: run.scenarios,
    checks: run.checks,
    findings: run.findings,
    ...(run.limited ? { limited: run.limited } : {}),
    traceability: traceReport(run, suite),
  };
}

/** 0 conformant, 1 nonconformant, 2 when mcpspec itself failed (its verdicts cannot be trusted) or judged nothing. */
export function exitCodeOf(report: Report): 0 | 1 | 2 {
  if (report.summary.error > 0 || report.summary.harnessErrors > 0) return 2;
  if (report.summary.pass + report.summary.fail + report.summary.warn === 0) return 2;
  // Only the authorization checks ran: passing them says nothing about the rest.
  if (report.limited && report.summary.conformant) return 2;
  return report.summary.conformant ? 0 : 1;
}
