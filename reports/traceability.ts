// Traceability: every requirement of the digest (and of the authorization supplement) with the checks
// of a run that cite it and what they found, and counts per digest section and per SEP. Pure: derived
// from the run's verdicts and the vendored requirement rows, so equal verdicts give an equal view.
// How each result is decided is documented in docs/traceability.md.

import { eraLabel, REQUIREMENTS, REQUIREMENTS_SOURCE, strengthOf, versionsOfEra, type Requirement, type Strength } from '../protocol/requirements.js';
import type { SpecVersion } from '../protocol/versions.js';
import type { CheckRecord, Role, TransportKind } from '../results/check-record.js';
import type { CheckResult } from '../results/run.js';
import type { Status } from '../results/verdict.js';

/**
 * met: judged, and every judging check passed. broken: a citing check failed. warned: a citing check
 * warned, none failed. not-applicable: its checks were skipped (with their reasons), or it is not a
 * rule for this run (another era, role, transport). not-testable: its checks were untestable (with
 * their reasons). no-check: no check of the run judges it. error: its only checks that could judge
 * it failed on mcpspec's side (never counted as broken).
 */
export const REQUIREMENT_RESULTS = ['met', 'broken', 'warned', 'not-applicable', 'not-testable', 'no-check', 'error'] as const;
export type RequirementResult = (typeof REQUIREMENT_RESULTS)[number];

/** A requirement's facts (as vendored) with its strength, and what became of it. */
export interface TracedRequirement extends Requirement {
  strength: Strength;
  result: RequirementResult;
  /** The checks of this run that cite it, with their status. */
  checks: { id: string; status: Status }[];
  /** Why it is not applicable, not testable, without a check or errored; notes on a partial judgement. */
  reasons?: string[];
}

/** How many requirements of a group came out each way, and the pass rate over the judged ones. */
export type TraceCounts = Record<RequirementResult, number> & {
  total: number;
  /** met + broken + warned. */
  judged: number;
  /** met / judged (0..1, four decimals); null when nothing was judged. */
  passRate: number | null;
};

export interface Traceability {
  /** Where the requirement rows come from (the digest's spec snapshot). */
  source: string;
  requirements: TracedRequirement[];
  /** Per digest section, in the digest's order. */
  areas: ({ area: string } & TraceCounts)[];
  /** Per SEP named for a requirement, in numeric order (a requirement may count under several). */
  seps: ({ sep: string } & TraceCounts)[];
  total: TraceCounts;
  /** The requirements whose level has a MUST or MUST NOT part (what the MUST-rate badge shows). */
  must: TraceCounts;
}

/** What the derivation reads of a run: its verdicts and what kind of run it was. */
export interface TracedRun {
  role: Role;
  judgedBy: SpecVersion;
  transport: TransportKind;
  checks: Pick<CheckResult, 'id' | 'requirements' | 'status' | 'message'>[];
}

/** A check of the whole catalogue (to say why a requirement no check of the run cites has none). */
export type CatalogueCheck = Pick<CheckRecord, 'id' | 'requirements' | 'role' | 'versions' | 'requires'>;

const JUDGED: RequirementResult[] = ['met', 'broken', 'warned'];

function reasonsOf(checks: TracedRun['checks'], status: Status): string[] {
  return [...new Set(checks.filter((c) => c.status === status).map((c) => `${c.id}: ${c.message}`))];
}

function list(ids: string[]): string {
  return ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ');
}

/** The result of a requirement some checks of the run cite: the worst judged outcome first. */
function fromChecks(citing: TracedRun['checks']): Pick<TracedRequirement, 'result' | 'reasons'> {
  const has = (s: Status) => citing.some((c) => c.status === s);
  const errored = citing.filter((c) => c.status === 'error').map((c) => c.id);
  const errorNote = errored.length ? [`${list(errored)} failed on mcpspec's side (error): not judged, never counted as broken`] : [];
  if (has('fail')) return { result: 'broken', ...(errorNote.length ? { reasons: errorNote } : {}) };
  if (has('warn')) return { result: 'warned', ...(errorNote.length ? { reasons: errorNote } : {}) };
  if (has('pass')) return { result: 'met', ...(errorNote.length ? { reasons: errorNote } : {}) };
  if (errored.length) return { result: 'error', reasons: errorNote };
  if (has('untestable')) return { result: 'not-testable', reasons: [...reasonsOf(citing, 'untestable'), ...reasonsOf(citing, 'skip')] };
  return { result: 'not-applicable', reasons: reasonsOf(citing, 'skip') };
}

/**
 * Why no check of the run cites a requirement: not a rule for this run (its era, or the only checks
 * for it are for another role, version or transport), or no check at all (mcpspec has none, or its
 * checks were not selected). Without the catalogue only the era can be told.
 */
export function withoutChecks(r: Requirement, run: Pick<TracedRun, 'role' | 'judgedBy' | 'transport'>, suite?: readonly CatalogueCheck[]): Pick<TracedRequirement, 'result' | 'reasons'> {
  if (!versionsOfEra(r.era).includes(run.judgedBy)) {
    return { result: 'not-applicable', reasons: [`a ${eraLabel(r.era)} requirement; this run was judged by ${run.judgedBy}`] };
  }
  if (!suite) return { result: 'no-check', reasons: ['no check of this run cites it'] };
  const citing = suite.filter((c) => c.requirements.includes(r.id));
  if (citing.length === 0) return { result: 'no-check', reasons: ['mcpspec has no check for it'] };
  const ofRole = citing.filter((c) => c.role === run.role);
  if (ofRole.length === 0) {
    const other = run.role === 'server' ? 'client' : 'server';
    return { result: 'not-applicable', reasons: [`judged on ${other}s only (${list(citing.map((c) => c.id))})`] };
  }
  const ofVersion = ofRole.filter((c) => c.versions.includes(run.judgedBy));
  if (ofVersion.length === 0) {
    const versions = [...new Set(ofRole.flatMap((c) => c.versions))].sort();
    return { result: 'not-applicable', reasons: [`its checks (${list(ofRole.map((c) => c.id))}) judge ${versions.join(', ')} only`] };
  }
  const ofTransport = ofVersion.filter((c) => !c.requires.transports || c.requires.transports.includes(run.transport));
  if (ofTransport.length === 0) {
    return { result: 'not-applicable', reasons: [`its checks (${list(ofVersion.map((c) => c.id))}) need the ${ofVersion[0].requires.transports!.join(' or ')} transport`] };
  }
  return { result: 'no-check', reasons: [`its checks (${list(ofTransport.map((c) => c.id))}) were not part of this run (--only, --skip)`] };
}

/** Counts of a group of traced requirements. */
export function countResults(rows: Pick<TracedRequirement, 'result'>[]): TraceCounts {
  const counts = Object.fromEntries(REQUIREMENT_RESULTS.map((k) => [k, 0])) as Record<RequirementResult, number>;
  for (const r of rows) counts[r.result] += 1;
  const judged = JUDGED.reduce((n, k) => n + counts[k], 0);
  return { ...counts, total: rows.length, judged, passRate: judged ? Math.round((counts.met / judged) * 10_000) / 10_000 : null };
}

/** Group rows by a key, keeping the order keys are first met (a row may have several keys). */
export function groupBy<T>(rows: T[], keys: (row: T) => string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) for (const k of keys(row)) out.set(k, [...(out.get(k) ?? []), row]);
  return out;
}

const sepNumber = (s: string) => Number(s.replace(/\D/g, ''));

/** Counts per area, per SEP, in total and for the MUST requirements. */
export function summarizeTrace<T extends Pick<TracedRequirement, 'result' | 'area' | 'seps' | 'strength'>>(rows: T[]): Pick<Traceability, 'areas' | 'seps' | 'total' | 'must'> {
  return {
    areas: [...groupBy(rows, (r) => [r.area])].map(([area, rs]) => ({ area, ...countResults(rs) })),
    seps: [...groupBy(rows, (r) => r.seps)].sort(([a], [b]) => sepNumber(a) - sepNumber(b)).map(([sep, rs]) => ({ sep, ...countResults(rs) })),
    total: countResults(rows),
    must: countResults(rows.filter((r) => r.strength === 'MUST')),
  };
}

/** The traceability view of a run. `suite`, the whole catalogue, lets it say why a requirement has no check here. */
export function traceRequirements(run: TracedRun, suite?: readonly CatalogueCheck[], requirements: readonly Requirement[] = REQUIREMENTS): Traceability {
  const rows: TracedRequirement[] = requirements.map((r) => {
    // Tolerant of hand-made reports (merge and verify read report.json without the schema).
    const citing = run.checks.filter((c) => (c.requirements ?? []).includes(r.id));
    const derived = citing.length ? fromChecks(citing) : withoutChecks(r, run, suite);
    return {
      id: r.id,
      level: r.level,
      strength: strengthOf(r.level),
      era: r.era,
      area: r.area,
      seps: r.seps,
      result: derived.result,
      checks: citing.map((c) => ({ id: c.id, status: c.status })),
      ...(derived.reasons?.length ? { reasons: derived.reasons } : {}),
    };
  });
  return { source: REQUIREMENTS_SOURCE, requirements: rows, ...summarizeTrace(rows) };
}

/** `97%` (floored, so a broken requirement never shows as 100%), or `–` when nothing was judged. */
export function percent(c: Pick<TraceCounts, 'met' | 'judged'>): string {
  return c.judged ? `${Math.floor((c.met * 100) / c.judged)}%` : '–';
}

/** How a result reads in a report. */
export const RESULT_LABEL: Record<RequirementResult, string> = {
  met: 'met',
  broken: 'broken',
  warned: 'warned',
  'not-applicable': 'not applicable',
  'not-testable': 'not testable',
  'no-check': 'no check',
  error: 'mcpspec error',
};

/** `58/60 MUST requirements met (96%)`: the line the reports and the MUST-rate badge agree on. */
export function mustLine(t: Pick<Traceability, 'must'>): string {
  return `${t.must.met}/${t.must.judged} MUST requirements met (${percent(t.must)})`;
}

/** The digest section's number (`3b`), or the whole area when it has none (`Authorization`). */
export function areaKey(area: string): string {
  return /^(\d+[a-z]?)\. /.exec(area)?.[1] ?? area;
}
