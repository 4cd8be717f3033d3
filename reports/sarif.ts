// SARIF 2.1.0: the static-analysis interchange format code-scanning dashboards and SARIF viewers read.
// One rule per check of the run, one result per fail or warn. The target has no source file, so a
// result's location is logical: the target (command or URL) and the recording messages it rests on.

import type * as Sarif from 'sarif';
import type { CheckResult } from '../results/run.js';
import type { Level } from '../results/verdict.js';
import type { Report } from './report.js';
import { checkText, oneLine, targetLabel } from './shared.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const LEVEL: Record<Level, Sarif.ReportingConfiguration.level> = { MUST: 'error', SHOULD: 'warning', MAY: 'note' };

function rule(c: CheckResult): Sarif.ReportingDescriptor {
  return {
    id: c.id,
    name: c.id,
    shortDescription: { text: c.title },
    fullDescription: { text: `${c.title}. ${c.level} (${c.requirements.join(', ')}); MCP versions ${c.versions.join(', ')}.` },
    helpUri: c.spec,
    help: { text: `${c.title} (${c.requirements.join(', ')}): ${c.spec}` },
    defaultConfiguration: { level: LEVEL[c.level] },
    properties: { requirements: c.requirements, versions: c.versions, level: c.level, area: c.area, kind: c.kind, tags: ['mcp', c.area, c.level] },
  };
}

function evidenceSummary(c: CheckResult): string {
  const e = c.evidence[0];
  if (!e) return '';
  const parts = [e.what];
  if (e.request !== undefined) parts.push(`sent ${oneLine(e.request, 200)}`);
  if (e.http) parts.push(`HTTP ${e.http.status}`);
  if (e.response !== undefined) parts.push(`received ${oneLine(e.response, 200)}`);
  if (e.expected !== undefined) parts.push(`expected ${oneLine(e.expected, 200)}`);
  if (e.actual !== undefined) parts.push(`actual ${oneLine(e.actual, 200)}`);
  const more = c.evidence.length > 1 ? ` (+${c.evidence.length - 1} more)` : '';
  return ` Evidence: ${parts.join('; ')}${more}.`;
}

function result(report: Report, c: CheckResult, ruleIndex: number): Sarif.Result {
  const target = targetLabel(report);
  const seqs = [...new Set(c.evidence.flatMap((e) => e.seq ?? []))];
  const logical: Sarif.LogicalLocation[] = [{ name: target, fullyQualifiedName: `${report.target.transport}:${target}`, kind: 'resource' }];
  for (const s of seqs) logical.push({ name: `message ${s}`, fullyQualifiedName: `recording.json#seq=${s}`, kind: 'element' });
  return {
    ruleId: c.id,
    ruleIndex,
    level: c.status === 'fail' ? LEVEL[c.level] : 'warning',
    kind: 'fail',
    message: { text: `${c.message}.${evidenceSummary(c)}` },
    locations: [{ logicalLocations: logical }],
    partialFingerprints: { 'mcpspecCheck/v1': `${c.id}|${target}` },
    properties: {
      status: c.status,
      requirements: c.requirements,
      scenario: c.scenario,
      ...(seqs.length ? { recordingSeq: seqs } : {}),
      ...(c.case ? { generatedCase: c.case } : {}),
      details: checkText(c),
    },
  };
}

function endTime(report: Report): string | undefined {
  const start = Date.parse(report.startedAt);
  return Number.isNaN(start) ? undefined : new Date(start + report.durationMs).toISOString();
}

/** The report as a SARIF 2.1.0 log (JSON text). */
export function renderSarif(report: Report): string {
  const rules: Sarif.ReportingDescriptor[] = [];
  const index = new Map<string, number>();
  for (const c of report.checks) {
    if (index.has(c.id)) continue;
    index.set(c.id, rules.length);
    rules.push(rule(c));
  }
  const results = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => result(report, c, index.get(c.id)!));
  const notifications: Sarif.Notification[] = [
    ...report.checks.filter((c) => c.status === 'error').map((c): Sarif.Notification => ({ level: 'error', message: { text: `${c.id}: ${c.message}` }, descriptor: { id: c.id } })),
    ...report.findings.filter((f) => f.kind !== 'note').map((f): Sarif.Notification => ({ level: f.kind === 'slow' ? 'note' : f.kind === 'precondition' ? 'warning' : 'error', message: { text: `${f.kind}: ${f.message}` } })),
  ];
  const end = endTime(report);
  const invocation: Sarif.Invocation = {
    executionSuccessful: report.summary.error === 0 && report.summary.harnessErrors === 0,
    startTimeUtc: report.startedAt,
    ...(end ? { endTimeUtc: end } : {}),
    ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
  };
  const log: Sarif.Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcpspec', version: report.tool.version, semanticVersion: report.tool.version, rules } },
        invocations: [invocation],
        results,
        properties: {
          digest: report.digest,
          role: report.role,
          target: targetLabel(report),
          era: report.era,
          summary: report.summary,
          seed: report.options.seed,
          strict: report.options.strict,
        },
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
