// Judging one mutant run against the baseline run of the same target: did mcpspec report the rule
// the mutation broke? Pure functions over the two reports' check verdicts and the proxy's log of
// applications. A mutation that never changed the traffic is not applicable, never killed; a run
// that got worse only on checks about other rules is counted apart, never as killed.

import type { MutationRecord } from './mutation.js';

export interface VerdictLine {
  id: string;
  status: string;
  requirements: string[];
  message?: string;
  /** What each piece of evidence is about (its `what` and `pointer`). */
  evidence?: string[];
}

export type Outcome = 'killed' | 'unrelated' | 'survived' | 'equivalent' | 'not-applicable' | 'error';
export const OUTCOMES: Outcome[] = ['killed', 'unrelated', 'survived', 'equivalent', 'not-applicable', 'error'];

export interface MutantResult {
  mutation: string;
  target: string;
  outcome: Outcome;
  /** The checks that got worse (id: before -> after), those citing the broken rule first. */
  by: string[];
  /** The same, with what each check cites (kept in the JSON so a score can be judged again). */
  worse?: { id: string; before: string; after: string; requirements: string[]; refailed: boolean }[];
  applied: number;
  exitCode: number | null;
  note?: string;
}

const RANK: Record<string, number> = { pass: 0, skip: 0, untestable: 0, error: 0, warn: 1, fail: 2 };

/** Numbers (counts, milliseconds, ids) aside, so a timing in a message is no new evidence. */
function shape(message: string | undefined): string {
  return (message ?? '').replace(/\d+(\.\d+)?/g, '#');
}

/** The failure now rests on something the baseline's did not: another message, or evidence of another kind. */
function newEvidence(before: VerdictLine, after: VerdictLine): boolean {
  if (shape(before.message) !== shape(after.message)) return true;
  const had = new Set((before.evidence ?? []).map(shape));
  return (after.evidence ?? []).some((e) => !had.has(shape(e)));
}

export interface Worse {
  line: VerdictLine;
  before: string;
  /** Same failing status, other evidence: the check found something new to fail on. */
  refailed: boolean;
}

/** Checks whose verdict is worse than in the baseline, and failing checks whose evidence changed. */
export function worsened(baseline: VerdictLine[], mutant: VerdictLine[]): Worse[] {
  const before = new Map(baseline.map((c) => [c.id, c]));
  const out: Worse[] = [];
  for (const c of mutant) {
    const b = before.get(c.id);
    const was = b ? RANK[b.status] ?? 0 : 0;
    const now = RANK[c.status] ?? 0;
    if (now > was) out.push({ line: c, before: b?.status ?? 'absent', refailed: false });
    else if (now > 0 && now === was && b && newEvidence(b, c)) out.push({ line: c, before: b.status, refailed: true });
  }
  return out;
}

/** The requirement IDs whose checks count as catching this mutation. */
export function caughtBy(m: Pick<MutationRecord, 'requirements' | 'related'>): Set<string> {
  return new Set([...m.requirements, ...(m.related ?? [])]);
}

export interface RunFacts {
  /** null: the run produced no report (mcpspec failed or was stopped). */
  checks: VerdictLine[] | null;
  exitCode: number | null;
  applied: number;
  /** Crash and hang findings (not tied to a requirement). */
  targetFindings: number;
}

/**
 * `unstable`: checks that failed (or failed on other evidence) in only one of the target's two
 * unmutated runs (direct and through the identity proxy): what the target does on its own timers; no
 * verdict of theirs counts either way. (One that moved only between untestable and pass is stable:
 * a failure of it is news.)
 */
export function judgeMutant(m: MutationRecord, target: string, baseline: RunFacts, mutant: RunFacts, equivalent: boolean, unstable: ReadonlySet<string> = new Set()): MutantResult {
  const base = { mutation: m.id, target, applied: mutant.applied, exitCode: mutant.exitCode };
  if (mutant.applied === 0) return { ...base, outcome: 'not-applicable', by: [] };
  if (!mutant.checks || !baseline.checks) {
    // No report: mcpspec stopped with a one-line reason (exit 2: the target could not be driven at all).
    const outcome: Outcome = mutant.exitCode === 2 ? 'unrelated' : 'error';
    return { ...base, outcome, by: [], note: mutant.exitCode === 2 ? 'the run stopped: no session could be had' : 'no report' };
  }
  const all = worsened(baseline.checks, mutant.checks).filter((w) => !unstable.has(w.line.id));
  const rules = caughtBy(m);
  const citing = all.filter((w) => w.line.requirements.some((r) => rules.has(r)));
  // A changed failure counts only where it cites the broken rule; elsewhere it is noise, not detection.
  const worse = all.filter((w) => !w.refailed);
  const fmt = (w: Worse) => `${w.line.id}: ${w.before} -> ${w.line.status}${w.refailed ? ' (new evidence)' : ''}`;
  Object.assign(base, { worse: all.map((w) => ({ id: w.line.id, before: w.before, after: w.line.status, requirements: w.line.requirements, refailed: w.refailed })) });
  if (citing.length && mutant.exitCode === 1) return { ...base, outcome: 'killed', by: [...citing, ...worse.filter((w) => !citing.includes(w))].map(fmt) };
  if (worse.length || mutant.targetFindings > baseline.targetFindings) return { ...base, outcome: equivalent ? 'equivalent' : 'unrelated', by: worse.map(fmt), note: worse.length ? undefined : 'only a crash or hang finding' };
  return { ...base, outcome: equivalent ? 'equivalent' : 'survived', by: [] };
}

/** Verdicts that differ between two runs of the same target (the transparency of the proxy). */
export function verdictDiff(a: VerdictLine[], b: VerdictLine[]): string[] {
  const mb = new Map(b.map((c) => [c.id, c.status]));
  const out: string[] = [];
  for (const c of a) if (mb.get(c.id) !== c.status) out.push(`${c.id}: ${c.status} -> ${mb.get(c.id) ?? 'absent'}`);
  for (const c of b) if (!a.some((x) => x.id === c.id)) out.push(`${c.id}: absent -> ${c.status}`);
  return out;
}

/** `- \`id\` [targets]: reason` lines of the equivalent-mutation list; `*` or no targets: every target. */
export function parseEquivalent(markdown: string): Map<string, { targets: string[] | '*'; reason: string }> {
  const out = new Map<string, { targets: string[] | '*'; reason: string }>();
  for (const line of markdown.split('\n')) {
    const m = /^- `([^`]+)`(?: \[([^\]]*)\])?: (.+)$/.exec(line.trim());
    if (!m) continue;
    const targets = !m[2] || m[2].trim() === '*' ? '*' : m[2].split(',').map((t) => t.trim());
    out.set(m[1], { targets, reason: m[3] });
  }
  return out;
}

export interface ScoreRow {
  area: string;
  counts: Record<Outcome, number>;
}

/** Counts per area and in total; the rate is killed over applicable and not equivalent. */
export function tally(results: MutantResult[], areaOf: (id: string) => string): { rows: ScoreRow[]; total: ScoreRow } {
  const zero = (): Record<Outcome, number> => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const by = new Map<string, Record<Outcome, number>>();
  const total = zero();
  for (const r of results) {
    const a = areaOf(r.mutation);
    if (!by.has(a)) by.set(a, zero());
    by.get(a)![r.outcome] += 1;
    total[r.outcome] += 1;
  }
  return { rows: [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([area, counts]) => ({ area, counts })), total: { area: 'total', counts: total } };
}

export function killRate(c: Record<Outcome, number>): number | undefined {
  const judged = c.killed + c.unrelated + c.survived;
  return judged ? c.killed / judged : undefined;
}

export function formatTally(title: string, t: { rows: ScoreRow[]; total: ScoreRow }): string {
  const head = ['area', 'killed', 'unrelated', 'survived', 'equivalent', 'n/a', 'error', 'rate'];
  const line = (r: ScoreRow) => {
    const rate = killRate(r.counts);
    return [r.area, r.counts.killed, r.counts.unrelated, r.counts.survived, r.counts.equivalent, r.counts['not-applicable'], r.counts.error, rate === undefined ? '-' : `${(rate * 100).toFixed(0)}%`].map(String);
  };
  const rows = [head, ...t.rows.map(line), line(t.total)];
  const w = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => `| ${r.map((x, i) => x.padEnd(w[i])).join(' | ')} |`;
  return [`### ${title}`, '', fmt(rows[0]), `| ${w.map((n) => '-'.repeat(n)).join(' | ')} |`, ...rows.slice(1).map(fmt)].join('\n');
}
