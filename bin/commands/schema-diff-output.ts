// How `mcpspec schema diff` prints its result: a list per definition for people, NDJSON for programs.

import type { DiffResult, Disagreement } from '../../arbitraries/schema-diff.js';

export interface DiffRun {
  /** The operands as given (vendored name or path). */
  a: string;
  b: string;
  seed: number;
  n: number;
  result: DiffResult;
}

/** Every line before the summary: the disagreements (one NDJSON line each), or the readable list. */
export function diffLines(run: DiffRun, json: boolean): string[] {
  const { compared, skipped } = run.result;
  if (json) return compared.flatMap((d) => d.causes.map((c) => JSON.stringify({ type: 'disagreement', ...c })));
  const out = [`A: ${run.a}`, `B: ${run.b}`];
  for (const d of compared) {
    if (d.causes.length === 0) continue;
    const causes = d.causes.length === 1 ? '1 cause' : `${d.causes.length} causes`;
    out.push('', `${d.definition}: ${d.disagreements} of ${d.tried} values disagree (${causes})`);
    for (const c of d.causes) out.push(...describeCause(c, run));
  }
  if (skipped.length > 0) {
    out.push('', 'skipped:');
    for (const s of skipped) out.push(`  ${s.definition}: ${s.reason}`);
  }
  out.push('');
  return out;
}

function describeCause(c: Disagreement, run: DiffRun): string[] {
  const name = (side: 'A' | 'B') => (side === 'A' ? run.a : run.b);
  const at = c.error.instancePath || '(root)';
  const lines = [
    `  ${c.accepts} accepts, ${c.refuses} refuses (${c.count}×): ${at} ${c.error.keyword}: ${c.error.message}`,
    `    witness: ${JSON.stringify(c.witness)}`,
  ];
  const label = c.origin.label;
  const origin = label ? `a near-valid value of ${c.origin.side} (${label.path || '(root)'} ${label.keyword}: ${label.mutation})` : `a valid value of ${c.origin.side}`;
  lines.push(`    from ${origin}; refused at ${c.error.schemaPath} in ${name(c.refuses)}`);
  return lines;
}

/** The last line: the counts (NDJSON: with the run's parameters and per-definition counts). */
export function diffSummary(run: DiffRun, json: boolean): string {
  const { compared, skipped } = run.result;
  const disagree = compared.filter((d) => d.causes.length > 0).length;
  if (!json) return `${compared.length} definitions compared, ${disagree} disagree, ${skipped.length} skipped`;
  return JSON.stringify({
    type: 'summary',
    a: run.a,
    b: run.b,
    seed: run.seed,
    n: run.n,
    compared: compared.length,
    disagree,
    skipped,
    definitions: compared.map((d) => ({ definition: d.definition, tried: d.tried, disagreements: d.disagreements, causes: d.causes.length, validOnly: d.validOnly })),
  });
}
