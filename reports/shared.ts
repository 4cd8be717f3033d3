// What the report renderers (JUnit, SARIF, Markdown, HTML, badge) share: grouping by area, counts,
// the target's name, the verdict word, evidence as text lines. Reads only the Report and result types.

import type { CheckResult } from '../results/run.js';
import type { Evidence, Status } from '../results/verdict.js';
import { STATUSES } from '../results/verdict.js';
import type { Report } from './report.js';

export type Counts = Record<Status, number>;

export function countStatuses(rows: Pick<CheckResult, 'status'>[]): Counts {
  const out = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Counts;
  for (const r of rows) out[r.status] += 1;
  return out;
}

/** Checks grouped by area, in the order the report lists them. */
export function byArea(checks: CheckResult[]): Map<string, CheckResult[]> {
  const areas = new Map<string, CheckResult[]>();
  for (const c of checks) {
    const rows = areas.get(c.area);
    if (rows) rows.push(c);
    else areas.set(c.area, [c]);
  }
  return areas;
}

/** The target as a user would name it: the command line of a stdio target, or the URL. */
export function targetLabel(report: Report): string {
  const t = report.target;
  return 'url' in t ? t.url : [t.command, ...t.args].join(' ');
}

/** The implementation under test as it named itself, falling back to the target. */
export function implementationName(report: Report): string {
  const info = report.peer.info as { name?: unknown; version?: unknown } | undefined;
  const name = typeof info?.name === 'string' ? info.name : undefined;
  const version = typeof info?.version === 'string' ? info.version : undefined;
  return name ? `${name}${version ? ` ${version}` : ''}` : targetLabel(report);
}

/** The one-word result, as the console report says it. */
export function verdictWord(report: Report): 'CONFORMANT' | 'NONCONFORMANT' | 'MCPSPEC ERROR' | 'NOTHING JUDGED' | 'AUTHORIZATION ONLY' {
  const s = report.summary;
  if (s.error > 0 || s.harnessErrors > 0) return 'MCPSPEC ERROR';
  if (s.pass + s.fail + s.warn === 0) return 'NOTHING JUDGED';
  if (report.limited && s.conformant) return 'AUTHORIZATION ONLY';
  return s.conformant ? 'CONFORMANT' : 'NONCONFORMANT';
}

/** Whether a verdict counts as a failure in this report: fail always, warn only under --strict. */
export function isFailure(report: Report, c: Pick<CheckResult, 'status'>): boolean {
  return c.status === 'fail' || (c.status === 'warn' && report.options.strict);
}

/** A value as one line of JSON (strings as they are), cut to `max` characters. */
export function oneLine(v: unknown, max = 2000): string {
  let s: string;
  try {
    s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** One evidence item as labelled lines (what, sent, http, received, at, expected, actual, seq). */
export function evidenceLines(e: Evidence, max = 2000): [label: string, text: string][] {
  const out: [string, string][] = [['what', e.what]];
  if (e.request !== undefined) out.push(['sent', oneLine(e.request, max)]);
  if (e.http) out.push(['http', `${e.http.status} ${e.http.contentType ?? ''}`.trim() + (e.http.body ? ` ${oneLine(e.http.body, max)}` : '')]);
  if (e.response !== undefined) out.push(['received', oneLine(e.response, max)]);
  if (e.pointer) out.push(['at', e.pointer]);
  if (e.expected !== undefined) out.push(['expected', oneLine(e.expected, max)]);
  if (e.actual !== undefined) out.push(['actual', oneLine(e.actual, max)]);
  if (e.seq?.length) out.push(['recording seq', e.seq.join(', ')]);
  return out;
}

/** A check's verdict and evidence as plain text: what JUnit bodies and SARIF messages carry. */
export function checkText(c: CheckResult, max = 2000): string {
  const lines = [`${c.status.toUpperCase()} ${c.id} [${c.level}] ${c.message}`, `${c.title} (${c.requirements.join(', ')})`, `spec: ${c.spec}`];
  if (c.case) {
    lines.push(`generated case (seed ${c.case.seed}, path ${c.case.path}, ${c.case.shrinks} shrinks${c.case.shrinkBudgetReached ? ', shrink budget reached' : ''}): ${oneLine(c.case.value, max)}`);
  }
  for (const e of c.evidence) {
    lines.push('');
    for (const [label, text] of evidenceLines(e, max)) lines.push(`${label}: ${text}`);
  }
  return lines.join('\n');
}

/** Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/U+FFFF), written as \uXXXX text instead. */
export function xmlSafe(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Seconds with millisecond precision, as JUnit's time attributes want them. */
export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}
