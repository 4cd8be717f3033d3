// The map of the official conformance suite (reports/official-suite-map.ts) as rows and totals, and
// the page docs/official-suite-map.md (`mcpspec list --official`): every official rule beside the
// mcpspec checks that judge it, why where none does, and where the two suites judge it differently.

import { CROSS_CUTTING, OFFICIAL_SCENARIOS, OFFICIAL_SUITE_VERSION, type Counterpart, type Fit, type OfficialRole } from './official-suite-map.js';

export interface OfficialMapRow extends Counterpart {
  role: OfficialRole;
  /** The official scenario; `*` for the checks the official suite adds to every scenario. */
  scenario: string;
  /** The official check id; absent for what a scenario judges as a whole. */
  check?: string;
}

export const FITS: readonly Fit[] = ['covered', 'partial', 'none', 'harness'];

/** Every official check of a role, one row per scenario and check (the scenario as a whole where it judges more). */
export function officialMapRows(role: OfficialRole): OfficialMapRow[] {
  const rows: OfficialMapRow[] = [];
  for (const [scenario, s] of Object.entries(OFFICIAL_SCENARIOS[role])) {
    for (const [check, c] of Object.entries(s.checks)) rows.push({ role, scenario, check, ...c });
    if (s.whole) rows.push({ role, scenario, ...s.whole });
  }
  for (const [check, c] of Object.entries(CROSS_CUTTING[role])) rows.push({ role, scenario: '*', check, ...c });
  return rows;
}

const RANK: Record<Fit, number> = { covered: 0, partial: 1, none: 2, harness: 3 };

/**
 * One entry per distinct official check id (a check reported by several scenarios, such as an OAuth
 * flow's steps, counts once, at its best fit): the unit the totals count as a rule.
 */
export function officialRules(role: OfficialRole): Map<string, Fit> {
  const rules = new Map<string, Fit>();
  for (const r of officialMapRows(role)) {
    if (!r.check) continue;
    const had = rules.get(r.check);
    if (had === undefined || RANK[r.fit] < RANK[had]) rules.set(r.check, r.fit);
  }
  return rules;
}

export interface OfficialMapTotals {
  role: OfficialRole;
  scenarios: number;
  /** Distinct official check ids by best fit. */
  rules: Record<Fit, number>;
  /** scenario:check pairs by fit. */
  rows: Record<Fit, number>;
  /** Rows where both suites judge the rule but decide some case differently. */
  differs: number;
  /** mcpspec checks of this role that no official check maps to. */
  mcpspecOnly: string[];
}

const zero = (): Record<Fit, number> => ({ covered: 0, partial: 0, none: 0, harness: 0 });

/** Totals of a role; `catalogueIds` are mcpspec's check ids of that role. */
export function officialMapTotals(role: OfficialRole, catalogueIds: readonly string[]): OfficialMapTotals {
  const rows = officialMapRows(role);
  const byRow = zero();
  for (const r of rows) byRow[r.fit]++;
  const byRule = zero();
  for (const fit of officialRules(role).values()) byRule[fit]++;
  const mapped = new Set(rows.flatMap((r) => r.checks));
  return {
    role,
    scenarios: Object.keys(OFFICIAL_SCENARIOS[role]).length,
    rules: byRule,
    rows: byRow,
    differs: rows.filter((r) => r.differs).length,
    mcpspecOnly: catalogueIds.filter((id) => !mapped.has(id)),
  };
}

/** The differences, one per mcpspec check (several official rows may share one reason). */
export function officialDifferences(): { checks: string[]; official: string[]; how: string }[] {
  const byReason = new Map<string, { checks: Set<string>; official: string[] }>();
  for (const role of ['server', 'client'] as const) {
    for (const r of officialMapRows(role)) {
      if (!r.differs) continue;
      const e = byReason.get(r.differs) ?? { checks: new Set<string>(), official: [] };
      r.checks.forEach((c) => e.checks.add(c));
      e.official.push(rowName(r));
      byReason.set(r.differs, e);
    }
  }
  return [...byReason].map(([how, e]) => ({ checks: [...e.checks], official: e.official, how }));
}

const rowName = (r: OfficialMapRow) => (r.check ? `${r.scenario === '*' ? '' : `${r.scenario}:`}${r.check}` : `${r.scenario} (as a whole)`);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(', ');

function totalsTable(out: string[], totals: OfficialMapTotals[]): void {
  out.push('| role | scenarios | rules | covered | partial | none | harness (not a rule) | judged differently | mcpspec checks with no official counterpart |');
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const t of totals) {
    const rules = t.rules.covered + t.rules.partial + t.rules.none;
    out.push(`| ${t.role} | ${t.scenarios} | ${rules} | ${t.rules.covered} | ${t.rules.partial} | ${t.rules.none} | ${t.rules.harness} | ${t.differs} | ${t.mcpspecOnly.length} |`);
  }
}

/** docs/official-suite-map.md. */
export function officialMapMarkdown(catalogue: { id: string; role: string }[]): string {
  const roles = ['server', 'client'] as const;
  const totals = roles.map((role) => officialMapTotals(role, catalogue.filter((c) => c.role === role).map((c) => c.id)));
  const out: string[] = [];
  out.push('# The official conformance suite beside mcpspec');
  out.push('');
  out.push('<!-- Generated by `mcpspec list --official --format md`; test/reports/official-map-view.test.ts fails when this page drifts. -->');
  out.push('');
  out.push(`Every check of \`@modelcontextprotocol/conformance\` ${OFFICIAL_SUITE_VERSION} (its \`conformance server\` and \`conformance client\``);
  out.push('scenarios), and the mcpspec checks that judge the same rule, from `reports/official-suite-map.ts` (the same map reads the');
  out.push('official suite\'s `--expected-failures` file). **covered**: the same rule, or stricter; **partial**: part of it, more');
  out.push('loosely, or only when the target happens to show it; **none**: no mcpspec check judges it (the reason is given);');
  out.push('**harness**: a set-up, gate or information check of the official suite, not a rule. A rule is one official check id');
  out.push('(a check several scenarios report counts once, at its best fit).');
  out.push('');
  out.push('## Totals');
  out.push('');
  totalsTable(out, totals);
  out.push('');
  out.push('## Where the two suites judge a rule differently');
  out.push('');
  out.push('mcpspec decides each of these from the specification text (quoted in the reason); docs/checks.md lists them under the check.');
  out.push('');
  for (const d of officialDifferences()) out.push(`- ${code(d.checks)} (official ${code(d.official)}): ${d.how}`);
  for (const role of roles) {
    out.push('');
    out.push(`## ${role === 'server' ? 'Server' : 'Client'} scenarios`);
    out.push('');
    out.push('| scenario | official check | fit | mcpspec checks | why / how it differs |');
    out.push('|---|---|---|---|---|');
    for (const r of officialMapRows(role)) {
      const note = [r.why, r.differs ? `differs: ${r.differs}` : ''].filter(Boolean).join(' ');
      out.push(`| ${r.scenario === '*' ? '(every scenario)' : `\`${r.scenario}\``} | ${r.check ? `\`${r.check}\`` : '(as a whole)'} | ${r.fit} | ${code(r.checks)} | ${cell(note)} |`);
    }
  }
  for (const t of totals) {
    out.push('');
    out.push(`## mcpspec ${t.role} checks the official suite has no check for (${t.mcpspecOnly.length})`);
    out.push('');
    out.push(t.mcpspecOnly.length ? code(t.mcpspecOnly) : '(none)');
  }
  return `${out.join('\n')}\n`;
}

/** The plain-text view: totals, then every row that is not covered, with its reason. */
export function officialMapText(catalogue: { id: string; role: string }[], roles: readonly OfficialRole[] = ['server', 'client']): string {
  const out: string[] = [`official conformance suite ${OFFICIAL_SUITE_VERSION} beside mcpspec`];
  for (const role of roles) {
    const t = officialMapTotals(role, catalogue.filter((c) => c.role === role).map((c) => c.id));
    const rules = t.rules.covered + t.rules.partial + t.rules.none;
    out.push(`${role}: ${t.scenarios} scenarios, ${rules} rules: ${t.rules.covered} covered, ${t.rules.partial} partial, ${t.rules.none} none (${t.rules.harness} harness checks); ${t.differs} judged differently; ${t.mcpspecOnly.length} mcpspec checks with no official counterpart`);
    for (const r of officialMapRows(role).filter((x) => x.fit === 'none' || x.fit === 'partial' || x.differs)) {
      out.push(`  ${r.fit.padEnd(7)} ${rowName(r)}${r.checks.length ? ` -> ${r.checks.join(', ')}` : ''}${r.why ? `: ${r.why}` : ''}${r.differs ? ` [differs: ${r.differs}]` : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}
