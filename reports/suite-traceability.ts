// The suite's own traceability (`mcpspec list --traceability`): every requirement with the checks of
// the catalogue that cite it, and those no check covers, counted per digest section and per SEP.
// A view of mcpspec itself, not of an implementation: no verdicts, only citations.

import { eraLabel, REQUIREMENTS, REQUIREMENTS_SOURCE, strengthOf, versionsOfEra, type Requirement, type Strength } from '../protocol/requirements.js';
import type { SpecVersion } from '../protocol/versions.js';
import type { Role } from '../results/check-record.js';
import { groupBy, type CatalogueCheck } from './traceability.js';

/** checked: a check cites it. not-applicable: not a rule for the asked version or role. no-check: nothing covers it. */
export const SUITE_RESULTS = ['checked', 'not-applicable', 'no-check'] as const;
export type SuiteResult = (typeof SUITE_RESULTS)[number];

/** A requirement's facts (as vendored) with its strength, and what became of it. */
export interface SuiteRequirement extends Requirement {
  strength: Strength;
  result: SuiteResult;
  /** The checks citing it (of the asked role and version). */
  checks: string[];
  reasons?: string[];
}

export type SuiteCounts = Record<SuiteResult, number> & {
  total: number;
  /** checked / (checked + no-check), four decimals; null when every one is not applicable. */
  coverage: number | null;
};

export interface SuiteTraceability {
  source: string;
  /** What the view was narrowed to (`mcpspec list --role`, `--spec-version`). */
  scope: { role?: Role; version?: SpecVersion };
  requirements: SuiteRequirement[];
  areas: ({ area: string } & SuiteCounts)[];
  seps: ({ sep: string } & SuiteCounts)[];
  total: SuiteCounts;
  must: SuiteCounts;
}

function countSuite(rows: Pick<SuiteRequirement, 'result'>[]): SuiteCounts {
  const c = Object.fromEntries(SUITE_RESULTS.map((k) => [k, rows.filter((r) => r.result === k).length])) as Record<SuiteResult, number>;
  const relevant = c.checked + c['no-check'];
  return { ...c, total: rows.length, coverage: relevant ? Math.round((c.checked / relevant) * 10_000) / 10_000 : null };
}

function traceOne(r: Requirement, suite: readonly CatalogueCheck[], scope: SuiteTraceability['scope']): Pick<SuiteRequirement, 'result' | 'checks' | 'reasons'> {
  const all = suite.filter((c) => c.requirements.includes(r.id));
  const mine = all.filter((c) => (!scope.role || c.role === scope.role) && (!scope.version || c.versions.includes(scope.version)));
  if (mine.length) return { result: 'checked', checks: mine.map((c) => c.id) };
  if (scope.version && !versionsOfEra(r.era).includes(scope.version)) {
    return { result: 'not-applicable', checks: [], reasons: [`a ${eraLabel(r.era)} requirement`] };
  }
  if (all.length === 0) return { result: 'no-check', checks: [], reasons: ['mcpspec has no check for it'] };
  const ofRole = all.filter((c) => !scope.role || c.role === scope.role);
  if (ofRole.length === 0) return { result: 'not-applicable', checks: [], reasons: [`checked on ${scope.role === 'server' ? 'client' : 'server'}s only (${all.map((c) => c.id).join(', ')})`] };
  const versions = [...new Set(ofRole.flatMap((c) => c.versions))].sort();
  return { result: 'not-applicable', checks: [], reasons: [`its checks (${ofRole.map((c) => c.id).join(', ')}) judge ${versions.join(', ')} only`] };
}

/** Every requirement (or those `ids` names) with the catalogue's checks citing it. */
export function traceSuite(suite: readonly CatalogueCheck[], scope: SuiteTraceability['scope'] = {}, ids?: ReadonlySet<string>): SuiteTraceability {
  const rows: SuiteRequirement[] = REQUIREMENTS.filter((r) => !ids || ids.has(r.id)).map((r) => {
    const t = traceOne(r, suite, scope);
    return { id: r.id, level: r.level, strength: strengthOf(r.level), era: r.era, area: r.area, seps: r.seps, result: t.result, checks: t.checks, ...(t.reasons ? { reasons: t.reasons } : {}) };
  });
  const sepNumber = (s: string) => Number(s.replace(/\D/g, ''));
  return {
    source: REQUIREMENTS_SOURCE,
    scope,
    requirements: rows,
    areas: [...groupBy(rows, (r) => [r.area])].map(([area, rs]) => ({ area, ...countSuite(rs) })),
    seps: [...groupBy(rows, (r) => r.seps)].sort(([a], [b]) => sepNumber(a) - sepNumber(b)).map(([sep, rs]) => ({ sep, ...countSuite(rs) })),
    total: countSuite(rows),
    must: countSuite(rows.filter((r) => r.strength === 'MUST')),
  };
}

const pct = (c: SuiteCounts) => (c.coverage === null ? '–' : `${Math.floor(c.coverage * 100)}%`);

function countsLine(name: string, c: SuiteCounts, w: number): string {
  return `  ${name.padEnd(w)}  ${String(c.checked).padStart(7)}  ${String(c['not-applicable']).padStart(14)}  ${String(c['no-check']).padStart(8)}  ${String(c.total).padStart(5)}  ${pct(c).padStart(8)}`;
}

/** The view as text: each section's requirements with their checks, then the counts per section and per SEP. */
export function renderSuiteTraceability(v: SuiteTraceability): string {
  const scope = [v.scope.role ? `${v.scope.role} checks` : '', v.scope.version ? `version ${v.scope.version}` : ''].filter(Boolean).join(', ');
  const out = [`Requirements of the ${v.source}, and the checks citing them${scope ? ` (${scope})` : ''}:`];
  const idW = Math.max(...v.requirements.map((r) => r.id.length), 2);
  const levelW = Math.max(...v.requirements.map((r) => r.level.length), 5);
  for (const a of v.areas) {
    out.push('', `${a.area}: ${a.checked} of ${a.checked + a['no-check']} with checks${a['not-applicable'] ? `, ${a['not-applicable']} not applicable` : ''}`);
    for (const r of v.requirements.filter((x) => x.area === a.area)) {
      const what = r.result === 'checked' ? r.checks.join(', ') : `${r.result === 'no-check' ? 'NO CHECK' : 'not applicable'}: ${(r.reasons ?? []).join('; ')}`;
      out.push(`  ${r.id.padEnd(idW)}  ${r.level.padEnd(levelW)}  ${r.era.padEnd(9)}  ${what}`);
    }
  }
  const names = [...v.areas.map((a) => a.area), ...v.seps.map((s) => s.sep), 'total', 'MUST'];
  const w = Math.max(...names.map((n) => n.length));
  const head = `  ${''.padEnd(w)}  checked  not applicable  no check  total  coverage`;
  out.push('', 'per section:', head, ...v.areas.map((a) => countsLine(a.area, a, w)), countsLine('total', v.total, w), countsLine('MUST', v.must, w));
  if (v.seps.length) out.push('', 'per SEP:', head, ...v.seps.map((s) => countsLine(s.sep, s, w)));
  out.push('', `${v.total.total} requirement${v.total.total === 1 ? '' : 's'}: ${v.total.checked} with checks, ${v.total['no-check']} without, ${v.total['not-applicable']} not applicable (coverage ${pct(v.total)}; MUST ${v.must.checked} of ${v.must.checked + v.must['no-check']}, ${pct(v.must)})`);
  return `${out.join('\n')}\n`;
}
