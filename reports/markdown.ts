// Markdown: a pull-request comment or a GitHub job summary ($GITHUB_STEP_SUMMARY). A summary line, a
// table of counts per area, then every failure, warning and error with its evidence in <details>.
// Every string from the report is escaped: servers choose their names, messages and payloads.

import type { CheckResult } from '../results/run.js';
import { STATUSES } from '../results/verdict.js';
import { traceabilityOf, type Report } from './report.js';
import { byArea, countStatuses, evidenceLines, implementationName, oneLine, targetLabel, verdictWord } from './shared.js';
import { areaKey, mustLine, percent, REQUIREMENT_RESULTS, RESULT_LABEL, type TraceCounts, type Traceability, type TracedRequirement } from './traceability.js';

const ICON: Record<string, string> = { fail: '❌', warn: '⚠️', error: '💥' };
const RESULT_ICON: Record<string, string> = { met: '✅', broken: '❌', warned: '⚠️', error: '💥' };

/** HTML-escape (the text goes inside HTML tags, or into a table cell where raw HTML would render). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Text for a Markdown line or table cell: one line, HTML-escaped, Markdown punctuation backslash-escaped. */
export function mdText(s: string, max = 500): string {
  return escapeHtml(oneLine(s, max).replace(/\s*[\r\n]+\s*/g, ' ').replace(/([\\`*_[\]#|~!()])/g, '\\$1'));
}

/** An inline code span that holds any text (the fence is longer than any backtick run inside). */
export function codeSpan(s: string): string {
  const text = oneLine(s, 300).replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced code block that holds any text. */
function codeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

function safeUrl(u: string): string | undefined {
  return /^https?:\/\/[^\s<>"'`()]+$/.test(u) ? u : undefined;
}

function summaryLine(report: Report): string {
  const s = report.summary;
  const counts = `${s.pass} passed, ${s.fail} failed, ${s.warn} warnings${report.options.strict ? ' (strict)' : ''}, ${s.skip} skipped, ${s.untestable} untestable, ${s.error} errors`;
  const crashes = s.targetFailures ? `, ${s.targetFailures} crash/hang findings` : '';
  return `**${verdictWord(report)}**: ${counts}${crashes} · MCP ${mdText(report.era.version)} (${report.era.era}) · ${report.role} ${mdText(implementationName(report))} · ${codeSpan(targetLabel(report))}`;
}

function detailsOf(c: CheckResult): string {
  const spec = safeUrl(c.spec);
  const lines = [
    `<details><summary>${ICON[c.status] ?? ''} ${c.status.toUpperCase()} <code>${escapeHtml(c.id)}</code> [${c.level}] ${escapeHtml(oneLine(c.message, 300).replace(/[\r\n]+/g, ' '))}</summary>`,
    '',
    `${mdText(c.title)} (${c.requirements.map((r) => mdText(r)).join(', ')})${spec ? ` · [spec](${spec})` : ''}`,
    '',
  ];
  const body: string[] = [];
  if (c.case) body.push(`generated case: seed ${c.case.seed}, path ${c.case.path}, ${c.case.shrinks} shrinks${c.case.shrinkBudgetReached ? ' (shrink budget reached)' : ''}`, `value: ${oneLine(c.case.value, 1000)}`, '');
  for (const e of c.evidence) {
    for (const [label, text] of evidenceLines(e, 1000)) body.push(`${label.padEnd(9)} ${text}`);
    body.push('');
  }
  if (body.length) lines.push(codeBlock(body.join('\n').trimEnd()), '');
  lines.push('</details>');
  return lines.join('\n');
}

/** The report as GitHub-flavoured Markdown. */
export function renderMarkdown(report: Report): string {
  const out: string[] = [`### mcpspec: ${verdictWord(report)}`, '', summaryLine(report), ''];
  out.push(`| area | ${STATUSES.join(' | ')} |`, `|---|${STATUSES.map(() => '---:').join('|')}|`);
  for (const [area, rows] of byArea(report.checks)) {
    const n = countStatuses(rows);
    out.push(`| ${mdText(area)} | ${STATUSES.map((s) => (n[s] ? String(n[s]) : '·')).join(' | ')} |`);
  }
  const s = report.summary;
  out.push(`| **total** | ${STATUSES.map((k) => `**${s[k]}**`).join(' | ')} |`, '');

  const notable = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error');
  if (notable.length) {
    out.push(`#### Failures, warnings and errors (${notable.length})`, '');
    for (const c of notable) out.push(detailsOf(c), '');
  }
  out.push(...traceabilityMarkdown(traceabilityOf(report)));
  const quiet = report.scenarios.filter((x) => x.status !== 'judged' && x.status !== 'not-applicable');
  if (quiet.length) {
    out.push('#### Scenarios without a judgement', '');
    for (const x of quiet) out.push(`- ${codeSpan(x.id)}: ${x.status}${x.message ? ` (${mdText(x.message)})` : ''}`);
    out.push('');
  }
  if (report.findings.length) {
    out.push('#### Findings', '');
    for (const f of report.findings) {
      out.push(`- **${f.kind}**: ${mdText(f.message.split('\n')[0])}${f.scenario ? ` (${codeSpan(f.scenario)})` : ''}`);
      if (f.lastSent) out.push(`  - last message sent: ${codeSpan(f.lastSent)}`);
    }
    out.push('');
  }
  out.push(`<sub>mcpspec ${mdText(report.tool.version)} · era ${mdText(report.era.reason)} · seed ${report.options.seed} · digest ${codeSpan(report.digest)}</sub>`, '');
  return out.join('\n');
}

function countsRow(name: string, c: TraceCounts, bold = false): string {
  const cell = (v: string) => (bold ? `**${v}**` : v);
  return `| ${bold ? `**${name}**` : name} | ${REQUIREMENT_RESULTS.map((k) => (c[k] ? cell(String(c[k])) : '·')).join(' | ')} | ${cell(percent(c))} |`;
}

function requirementCell(r: TracedRequirement): string {
  const checks = r.checks.map((c) => `${codeSpan(c.id)} ${c.status}`).join(', ');
  const why = (r.reasons ?? []).map((x) => mdText(x, 160)).join('; ');
  return [checks, why].filter(Boolean).join(' · ') || '·';
}

/** The traceability view: counts per digest section and per SEP, the broken and warned requirements, and every requirement in <details>. */
export function traceabilityMarkdown(t: Traceability): string[] {
  const header = `| %s | ${REQUIREMENT_RESULTS.map((k) => RESULT_LABEL[k]).join(' | ')} | pass rate |`;
  const rule = `|---|${REQUIREMENT_RESULTS.map(() => '---:').join('|')}|---:|`;
  const out = [
    `#### Requirements: ${mustLine(t)}; ${t.total.judged} of ${t.total.total} requirements judged, ${percent(t.total)} of them met`,
    '',
    `<sub>Each requirement of the ${mdText(t.source)} with the checks of this run that cite it. Pass rate: met over judged (met, broken, warned); an mcpspec error never counts as broken.</sub>`,
    '',
    header.replace('%s', 'area'),
    rule,
    ...t.areas.map((a) => countsRow(mdText(a.area), a)),
    countsRow('total', t.total, true),
    countsRow('MUST', t.must, true),
    '',
  ];
  if (t.seps.length) out.push(header.replace('%s', 'SEP'), rule, ...t.seps.map((x) => countsRow(mdText(x.sep), x)), '');
  const notable = t.requirements.filter((r) => r.result === 'broken' || r.result === 'warned' || r.result === 'error');
  for (const r of notable) out.push(`- ${RESULT_ICON[r.result]} **${RESULT_LABEL[r.result]}** ${codeSpan(r.id)} [${mdText(r.level)}] (${mdText(areaKey(r.area))}): ${requirementCell(r)}`);
  if (notable.length) out.push('');
  out.push(
    `<details><summary>Every requirement (${t.requirements.length})</summary>`,
    '',
    '| requirement | level | section | SEP | result | checks, reasons |',
    '|---|---|---|---|---|---|',
    ...t.requirements.map((r) => `| ${codeSpan(r.id)} | ${mdText(r.level)} | ${mdText(areaKey(r.area))} | ${r.seps.map((x) => mdText(x)).join(', ') || '·'} | ${RESULT_ICON[r.result] ? `${RESULT_ICON[r.result]} ` : ''}${RESULT_LABEL[r.result]} | ${requirementCell(r)} |`),
    '',
    '</details>',
    '',
  );
  return out;
}
