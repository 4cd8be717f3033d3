// TAP version 14: the plain-text test protocol many harnesses read (prove, tap-parser, node:test
// reporters). One test point per check, then one per crash, hang or harness finding, so a run that
// is nonconformant only through a crash is not all "ok". A check that could not be judged is a SKIP
// with its reason; a warning is "not ok ... # TODO" (a SHOULD missed does not fail the run) unless the
// run was strict; mcpspec's own error is "not ok" (its verdicts cannot be trusted).

import type { CheckResult, Finding } from '../results/run.js';
import type { Report } from './report.js';
import { oneLine } from './shared.js';

/** A TAP description or directive reason on one line: no newline, and `#` escaped (it starts a directive). */
function tapText(s: string, max = 300): string {
  return oneLine(s.replace(/[\r\n]+/g, ' '), max).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

/** A YAML diagnostics block (two-space indent under the test point); every value a JSON string, which YAML reads. */
function diagnostics(fields: Record<string, string | string[] | undefined>): string[] {
  const lines = ['  ---'];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (Array.isArray(v)) lines.push(`  ${k}:`, ...v.map((x) => `    - ${JSON.stringify(x)}`));
    else lines.push(`  ${k}: ${JSON.stringify(v)}`);
  }
  lines.push('  ...');
  return lines;
}

function checkPoint(report: Report, c: CheckResult, n: number): string[] {
  const name = `${tapText(c.id)} - ${tapText(c.title)}`;
  const detail = () =>
    diagnostics({
      status: c.status,
      level: c.level,
      message: oneLine(c.message, 1000),
      requirements: c.requirements,
      spec: c.spec,
      evidence: c.evidence.slice(0, 3).map((e) => oneLine(e.what, 300)),
    });
  switch (c.status) {
    case 'pass':
      return [`ok ${n} - ${name}`];
    case 'skip':
    case 'untestable':
      return [`ok ${n} - ${name} # SKIP ${c.status}: ${tapText(c.message)}`];
    case 'warn':
      return report.options.strict ? [`not ok ${n} - ${name}`, ...detail()] : [`not ok ${n} - ${name} # TODO ${c.level} not met: ${tapText(c.message)}`, ...detail()];
    default:
      return [`not ok ${n} - ${name}`, ...detail()];
  }
}

function findingPoint(f: Finding, n: number): string[] {
  return [
    `not ok ${n} - ${tapText(f.kind)}${f.scenario ? ` in ${tapText(f.scenario)}` : ''}: ${tapText(f.message)}`,
    ...diagnostics({ kind: f.kind, message: oneLine(f.message, 1000), lastSent: f.lastSent ? oneLine(f.lastSent, 1000) : undefined, stderrTail: f.stderrTail ? oneLine(f.stderrTail, 1000) : undefined, repro: f.repro }),
  ];
}

/** The report as TAP version 14 (the plan first: the count is known). */
export function renderTap(report: Report): string {
  const findings = report.findings.filter((f) => f.kind === 'crash' || f.kind === 'hang' || f.kind === 'harness');
  const lines = ['TAP version 14', `1..${report.checks.length + findings.length}`];
  lines.push(`# mcpspec ${report.tool.version}: ${report.role} ${report.target.transport}, ${report.era.judgedBy} (${report.era.era}), seed ${report.options.seed}, ${report.digest}`);
  let n = 0;
  for (const c of report.checks) lines.push(...checkPoint(report, c, ++n));
  for (const f of findings) lines.push(...findingPoint(f, ++n));
  const s = report.summary;
  lines.push(`# ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.skip} skip, ${s.untestable} untestable, ${s.error} error; ${s.conformant ? 'conformant' : 'not conformant'}`);
  return `${lines.join('\n')}\n`;
}
