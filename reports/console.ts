// The console report: grouped by area, counts per area, every failure with its evidence and spec link.

import { NO_SESSION, TRAFFIC_ONLY, type CheckResult } from '../results/run.js';
import type { Status } from '../results/verdict.js';
import type { Report } from './report.js';
import { verdictWord } from './shared.js';

const MARK: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP', untestable: 'N/T ', error: 'ERR ' };

function color(enabled: boolean, code: number, s: string): string {
  return enabled ? `\u001b[${code}m${s}\u001b[0m` : s;
}

function statusColor(s: Status): number {
  return s === 'pass' ? 32 : s === 'fail' || s === 'error' ? 31 : s === 'warn' ? 33 : 90;
}

function json(v: unknown, max = 300): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? '' : s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The console report: grouped by area, counts per area, every failure with its evidence and spec link. */
export function renderConsole(report: Report, opts: { color: boolean; verbose?: boolean } = { color: false }): string {
  const c = (code: number, s: string) => color(opts.color, code, s);
  const out: string[] = [];
  const t = report.target;
  const started = 'url' in t && t.start ? `, started with ${[t.start.command, ...t.start.args].join(' ')}` : '';
  out.push(c(1, `mcpspec ${report.tool.version}: ${'url' in t ? t.url : `${t.command} ${t.args.join(' ')}`} (${report.role} under test, ${t.transport}${started})`));
  const info = report.peer.info as { name?: string; version?: string } | undefined;
  out.push(`${report.role}: ${info?.name ?? 'unnamed'} ${info?.version ?? ''} | era: ${report.era.era} ${report.era.version} (${report.era.reason}) | capabilities: ${Object.keys(report.peer.capabilities).join(', ') || 'none'}`);
  const areas = new Map<string, CheckResult[]>();
  // Checks that could not run for want of a session make one line at the end, not one each.
  const sessionless = report.checks.filter((r) => r.status === 'skip' && r.message === NO_SESSION);
  for (const r of report.checks) if (!sessionless.includes(r)) areas.set(r.area, [...(areas.get(r.area) ?? []), r]);
  for (const [area, rows] of areas) {
    const counts = (['pass', 'fail', 'warn', 'skip', 'untestable', 'error'] as Status[]).map((s) => [s, rows.filter((r) => r.status === s).length] as const).filter(([, n]) => n > 0);
    out.push('');
    out.push(`${c(1, area)}  ${counts.map(([s, n]) => c(statusColor(s), `${n} ${s}`)).join(', ')}`);
    for (const r of rows) {
      out.push(`  ${c(statusColor(r.status), MARK[r.status])} ${r.id} ${c(90, `[${r.level}]`)} ${r.message}`);
      if (r.status === 'fail' || r.status === 'warn' || r.status === 'error' || opts.verbose) {
        if (r.status !== 'pass') {
          out.push(c(90, `       ${r.title} (${r.requirements.join(', ')}) ${r.spec}`));
          if (r.case) out.push(c(90, `       generated case (seed ${r.case.seed}, path ${r.case.path}, ${r.case.shrinks} shrinks${r.case.shrinkBudgetReached ? ', budget reached' : ''}): ${json(r.case.value)}`));
          for (const e of r.evidence.slice(0, 2)) {
            out.push(c(90, `       - ${e.what}`));
            if (e.request !== undefined) out.push(c(90, `         sent:     ${json(e.request)}`));
            if (e.http) out.push(c(90, `         http:     ${e.http.status} ${e.http.contentType ?? ''}`));
            if (e.response !== undefined) out.push(c(90, `         received: ${json(e.response)}`));
            if (e.pointer) out.push(c(90, `         at:       ${e.pointer}`));
            if (e.expected !== undefined) out.push(c(90, `         expected: ${json(e.expected)}`));
            if (e.actual !== undefined) out.push(c(90, `         actual:   ${json(e.actual)}`));
          }
        }
      }
    }
  }
  // Scenarios run only for the oracles (--only selected oracles) make one line, not one each.
  const trafficOnly = report.scenarios.filter((s) => s.status === 'no-judgement' && s.message === TRAFFIC_ONLY);
  const quiet = report.scenarios.filter((s) => s.status !== 'judged' && !trafficOnly.includes(s));
  if (quiet.length || trafficOnly.length) {
    out.push('');
    out.push(c(1, 'scenarios without a judgement'));
    for (const s of quiet) out.push(`  ${s.id}: ${s.status}${s.message ? ` (${s.message})` : ''}`);
    if (trafficOnly.length) out.push(`  ${trafficOnly.length} scenario(s) ${TRAFFIC_ONLY}: ${trafficOnly.map((s) => s.id).join(', ')}`);
  }
  if (report.findings.length) {
    out.push('');
    out.push(c(1, 'findings'));
    for (const f of report.findings) {
      const count = typeof f.data?.count === 'number' && f.data.count > 1 ? ` (${f.data.count} times)` : '';
      out.push(`  ${f.kind}: ${f.message.split('\n')[0]}${count}${f.scenario ? ` [${f.scenario}]` : ''}`);
      if (f.lastSent) out.push(c(90, `       last message sent: ${json(f.lastSent, 200)}`));
      if (f.stderrTail) out.push(c(90, `       stderr: ${json(f.stderrTail.trim().split('\n').slice(-3).join(' | '), 300)}`));
    }
  }
  const s = report.summary;
  out.push('');
  if (sessionless.length) out.push(c(90, `${sessionless.length} checks skipped, not run without a session: ${[...new Set(sessionless.map((r) => r.area))].join(', ')}`));
  if (report.limited) out.push(c(33, `only part of the suite ran: ${report.limited}`));
  const word = verdictWord(report);
  const verdict = c(word === 'CONFORMANT' ? 32 : word === 'AUTHORIZATION ONLY' ? 33 : 31, word);
  out.push(`${verdict}: ${s.pass} passed, ${s.fail} failed, ${s.warn} warnings${report.options.strict ? ' (strict)' : ''}, ${s.skip} skipped, ${s.untestable} untestable, ${s.error} errors; ${s.targetFailures} crash/hang findings; ${(report.durationMs / 1000).toFixed(1)} s`);
  return out.join('\n');
}
