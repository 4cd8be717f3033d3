// JUnit XML: the test report format CI systems read (GitLab, Jenkins, GitHub test reporters).
// One <testsuite> per area, one <testcase> per check; crash, hang and harness findings are a
// testsuite of their own so a run that is nonconformant only through a crash is not shown green.

import { create } from 'xmlbuilder2';
import type { CheckResult, Finding } from '../results/run.js';
import type { Report } from './report.js';
import { byArea, checkText, isFailure, oneLine, seconds, targetLabel, xmlSafe } from './shared.js';

/** The testsuite that carries crash, hang and harness findings. */
export const FINDINGS_SUITE = 'mcpspec.findings';

interface Case {
  check?: CheckResult;
  finding?: Finding;
  classname: string;
  name: string;
  ms: number;
}

/** Per-check times: a check has no clock of its own, so its scenario's time is shared among the checks it judged. */
function checkTimes(report: Report): Map<CheckResult, number> {
  const perScenario = new Map<string, number>();
  for (const c of report.checks) perScenario.set(c.scenario, (perScenario.get(c.scenario) ?? 0) + 1);
  const duration = new Map(report.scenarios.map((s) => [s.id, s.durationMs]));
  return new Map(report.checks.map((c) => [c, (duration.get(c.scenario) ?? 0) / (perScenario.get(c.scenario) ?? 1)]));
}

function findingText(f: Finding): string {
  const lines = [f.message];
  if (f.scenario) lines.push(`scenario: ${f.scenario}`);
  if (f.lastSent) lines.push(`last message sent: ${oneLine(f.lastSent)}`);
  if (f.stderrTail) lines.push(`stderr tail:\n${f.stderrTail}`);
  if (f.repro) lines.push(`reproduction: ${f.repro}`);
  return lines.join('\n');
}

/** The report as JUnit XML (testsuites > testsuite per area > testcase per check). */
export function renderJunit(report: Report): string {
  const x = (s: string) => xmlSafe(s);
  const times = checkTimes(report);
  const suites = new Map<string, Case[]>();
  for (const [area, checks] of byArea(report.checks)) {
    suites.set(area, checks.map((c) => ({ check: c, classname: area, name: c.id, ms: times.get(c) ?? 0 })));
  }
  const bad = report.findings.filter((f) => f.kind === 'crash' || f.kind === 'hang' || f.kind === 'harness');
  if (bad.length) suites.set(FINDINGS_SUITE, bad.map((f, i) => ({ finding: f, classname: FINDINGS_SUITE, name: `${f.kind}${bad.length > 1 ? ` ${i + 1}` : ''}${f.scenario ? ` (${f.scenario})` : ''}`, ms: 0 })));

  const tally = (cases: Case[]) => ({
    tests: cases.length,
    failures: cases.filter((k) => (k.check && isFailure(report, k.check)) || (k.finding && k.finding.kind !== 'harness')).length,
    errors: cases.filter((k) => k.check?.status === 'error' || k.finding?.kind === 'harness').length,
    skipped: cases.filter((k) => k.check?.status === 'skip' || k.check?.status === 'untestable').length,
  });
  const all = tally([...suites.values()].flat());
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele('testsuites', {
    name: x(`mcpspec ${report.role} conformance: ${targetLabel(report)}`),
    tests: String(all.tests),
    failures: String(all.failures),
    errors: String(all.errors),
    skipped: String(all.skipped),
    time: seconds(report.durationMs),
    timestamp: report.startedAt,
  });
  for (const [name, cases] of suites) {
    const t = tally(cases);
    const suite = root.ele('testsuite', {
      name: x(name),
      tests: String(t.tests),
      failures: String(t.failures),
      errors: String(t.errors),
      skipped: String(t.skipped),
      time: seconds(cases.reduce((n, k) => n + k.ms, 0)),
      timestamp: report.startedAt,
    });
    const props = suite.ele('properties');
    const prop = (n: string, v: string) => props.ele('property', { name: n, value: x(v) });
    prop('mcpspec.digest', report.digest);
    prop('mcpspec.era', `${report.era.era} ${report.era.version} (judged by ${report.era.judgedBy})`);
    prop('mcpspec.target', targetLabel(report));
    prop('mcpspec.seed', String(report.options.seed));
    prop('mcpspec.strict', String(report.options.strict));
    for (const k of cases) {
      const tc = suite.ele('testcase', { classname: x(k.classname), name: x(k.name), time: seconds(k.ms) });
      if (k.finding) {
        const f = k.finding;
        tc.ele(f.kind === 'harness' ? 'error' : 'failure', { message: x(oneLine(f.message.split('\n')[0], 500)), type: f.kind }).txt(x(findingText(f)));
        continue;
      }
      const c = k.check!;
      const message = x(oneLine(c.message, 500).replace(/\s*[\r\n]+\s*/g, ' '));
      if (isFailure(report, c)) tc.ele('failure', { message, type: `${c.level} ${c.status}` }).txt(x(checkText(c)));
      else if (c.status === 'error') tc.ele('error', { message, type: 'mcpspec' }).txt(x(checkText(c)));
      else if (c.status === 'skip' || c.status === 'untestable') tc.ele('skipped', { message: x(`${c.status}: ${oneLine(c.message, 500).replace(/\s*[\r\n]+\s*/g, ' ')}`) });
      else if (c.status === 'warn') tc.ele('system-out').txt(x(`warning (a SHOULD broken; fails only with --strict)\n${checkText(c)}`));
    }
  }
  return doc.end({ prettyPrint: true, wellFormed: true });
}
