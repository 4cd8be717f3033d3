// Merging the reports of a sharded run (`--shard i/n`) into the report of the whole run. Pure: reads
// and returns report data. Scenario checks come from exactly one shard; an oracle ran in every shard
// over that shard's traffic, so its merged verdict is the worst one seen.

import type { CheckResult, Finding, ScenarioResult } from '../results/run.js';
import type { Status } from '../results/verdict.js';
import { summarize, traceReport, verdictDigest, type Report } from './report.js';
import type { CatalogueCheck } from './traceability.js';

/** Why shards cannot be merged; one line for the user. */
export class MergeError extends Error {
  override name = 'MergeError';
}

/** Worst first: a merged oracle takes the first of these any shard reported. */
export const SEVERITY: Status[] = ['fail', 'warn', 'error', 'pass', 'untestable', 'skip'];

export function worstStatus(statuses: Status[]): Status {
  return SEVERITY.find((s) => statuses.includes(s)) ?? 'skip';
}

export interface MergeOrder {
  /** Check ids in the order the catalogue lists them (unknown ids go last, in the order seen). */
  checks?: string[];
  /** Scenario ids in catalogue order. */
  scenarios?: string[];
}

const MAX_EVIDENCE = 20;

function same<T>(reports: Report[], what: string, key: (r: Report) => T): void {
  const first = JSON.stringify(key(reports[0]));
  const other = reports.find((r) => JSON.stringify(key(r)) !== first);
  if (other) throw new MergeError(`the shards are of different ${what}: ${first} and ${JSON.stringify(key(other))}`);
}

/** Merge the reports of shards 1..n of one run; throws MergeError when they are not that. `suite` as for buildReport. */
export function mergeShards(reports: Report[], order: MergeOrder = {}, suite?: readonly CatalogueCheck[]): Report {
  if (reports.length === 0) throw new MergeError('no reports to merge');
  const unsharded = reports.findIndex((r) => !r.shard);
  if (unsharded >= 0) throw new MergeError(`report ${unsharded + 1} is not a shard (it has no "shard" field)`);
  same(reports, 'report versions', (r) => r.reportVersion);
  same(reports, 'mcpspec versions', (r) => r.tool.version);
  same(reports, 'shard counts', (r) => r.shard!.count);
  same(reports, 'targets', (r) => r.target);
  same(reports, 'eras', (r) => ({ era: r.era.era, version: r.era.version, judgedBy: r.era.judgedBy }));
  same(reports, 'spec versions', (r) => r.options.specVersion);
  same(reports, 'seeds', (r) => r.options.seed);
  same(reports, 'options', (r) => ({ ...r.options, seed: undefined }));
  const count = reports[0].shard!.count;
  const seen = new Map<number, number>();
  for (const r of reports) {
    const i = r.shard!.index;
    if (seen.has(i)) throw new MergeError(`shard ${i}/${count} is given twice`);
    seen.set(i, 1);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new MergeError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const sorted = [...reports].sort((a, b) => a.shard!.index - b.shard!.index);

  const byId = new Map<string, CheckResult[]>();
  for (const r of sorted) for (const c of r.checks) byId.set(c.id, [...(byId.get(c.id) ?? []), c]);
  const checks: CheckResult[] = [];
  for (const [id, results] of byId) {
    if (results.length === 1) {
      checks.push(results[0]);
      continue;
    }
    if (results[0].scenario !== 'run') throw new MergeError(`scenario check ${id} is in more than one shard`);
    const status = worstStatus(results.map((c) => c.status));
    const worst = results.find((c) => c.status === status)!;
    const messages = [...new Set(results.filter((c) => c.status === status).map((c) => c.message).filter(Boolean))];
    const evidence = results.filter((c) => c.status === status).flatMap((c) => c.evidence).slice(0, MAX_EVIDENCE);
    checks.push({ ...worst, status, message: messages.join('; '), evidence });
  }
  const rank = (ids: string[] | undefined) => {
    const m = new Map((ids ?? []).map((id, i) => [id, i]));
    return (id: string) => m.get(id) ?? Number.MAX_SAFE_INTEGER;
  };
  const checkRank = rank(order.checks);
  checks.sort((a, b) => checkRank(a.id) - checkRank(b.id));

  const scenarios: ScenarioResult[] = sorted.flatMap((r) => r.scenarios);
  const scenarioRank = rank(order.scenarios);
  scenarios.sort((a, b) => scenarioRank(a.id) - scenarioRank(b.id));

  const findings: Finding[] = [];
  const seenFindings = new Set<string>();
  for (const f of sorted.flatMap((r) => r.findings)) {
    const key = JSON.stringify([f.kind, f.scenario ?? '', f.message]);
    if (seenFindings.has(key)) continue;
    seenFindings.add(key);
    findings.push(f);
  }

  const first = sorted[0];
  const merged: Report = {
    ...first,
    startedAt: sorted.map((r) => r.startedAt).sort()[0],
    durationMs: Math.max(...sorted.map((r) => r.durationMs)),
    summary: summarize(checks, findings, first.options.strict),
    digest: verdictDigest(checks, first.era.judgedBy),
    scenarios,
    checks,
    findings,
    traceability: traceReport({ ...first, checks }, suite),
  };
  delete merged.shard;
  return merged;
}
